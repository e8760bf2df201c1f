package dev.cairn.hbase;

import dev.cairn.hbase.buffer.ChangedRows;
import dev.cairn.hbase.buffer.GenerationRows;
import dev.cairn.hbase.buffer.RowFilter;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.LongAdder;
import org.apache.hadoop.hbase.regionserver.HStoreFile;
import org.apache.hadoop.hbase.regionserver.StoreFileReader;

/**
 * One generation of the compaction buffer (docs/adapters/hbase.md, "The compaction buffer: a
 * store engine"): a live compaction output and the leaves that answer in its place for rows no
 * compaction changed, and, for a get of one changed row, the leaves its drop mask leaves (bit
 * {@code i} of a mask names {@code leaves[i]}). Each leaf has a filter of its rows ({@code
 * leafFilters[i]}), so a get opens only the leaves that may hold its row. Immutable but for its
 * read counters, which the trim reads and resets each interval, and its sample of rows read.
 */
final class BufferGeneration {
  final long id;
  final HStoreFile output;
  final List<HStoreFile> leaves;
  final List<RowFilter> leafFilters;
  final ChangedRows changed;
  final long bornNanos;
  /** The leaves' bytes on disk: the generation's extra space. */
  final long leafBytes;
  /** The leaves' row filters' memory. */
  final long filterBytes;
  final LongAdder leafReads = new LongAdder();
  /** Rows recently read through the leaves: what a warm hand-over loads from the output. */
  final RecentRows recentReads = new RecentRows();
  final LongAdder outputReads = new LongAdder();

  /**
   * What a generation holds and how much of it is cached.
   *
   * @param changedRows rows held as changed (their memory)
   * @param rowFilterBytes the leaves' row filters' memory
   */
  record Figures(int leafFiles, long leafBytes, long leafCachedBytes, long outputBytes, long outputCachedBytes,
      long changedRows, long rowFilterBytes) {}

  private BufferGeneration(long id, HStoreFile output, List<HStoreFile> leaves, List<RowFilter> leafFilters,
      ChangedRows changed, long bornNanos) {
    if (leafFilters.size() != leaves.size()) {
      throw new IllegalArgumentException(leafFilters.size() + " row filters for " + leaves.size() + " leaves");
    }
    this.id = id;
    this.output = output;
    this.leaves = List.copyOf(leaves);
    this.leafFilters = List.copyOf(leafFilters);
    this.filterBytes = leafFilters.stream().mapToLong(RowFilter::bytes).sum();
    this.changed = changed;
    this.bornNanos = bornNanos;
    this.leafBytes = leaves.stream().mapToLong(BufferGeneration::bytes).sum();
  }

  /**
   * The generation of a compaction into {@code output} from {@code inputs} (in the order of its
   * audit's drop masks), absorbing the generations whose outputs are among the inputs. Its leaves
   * are the absorbed generations' leaves, then the other inputs, numbered so: the order {@link
   * GenerationRows#absorb} gives the drop masks. {@code inputFilters} are the inputs' row filters
   * in the same order (empty: none, every leaf is opened).
   */
  static BufferGeneration compose(long id, List<HStoreFile> inputs, List<RowFilter> inputFilters, HStoreFile output,
      ChangedRows step, List<BufferGeneration> absorbed) {
    List<HStoreFile> leaves = new ArrayList<>();
    List<RowFilter> filters = new ArrayList<>();
    List<ChangedRows> rows = new ArrayList<>();
    int[] leafCounts = new int[absorbed.size()];
    Map<HStoreFile, Integer> absorbedIndex = new HashMap<>();
    for (int j = 0; j < absorbed.size(); j++) {
      BufferGeneration g = absorbed.get(j);
      absorbedIndex.put(g.output, j);
      leaves.addAll(g.leaves);
      filters.addAll(g.leafFilters);
      rows.add(g.changed);
      leafCounts[j] = g.leaves.size();
    }
    int[] outputOf = new int[inputs.size()];
    for (int i = 0; i < inputs.size(); i++) {
      outputOf[i] = absorbedIndex.getOrDefault(inputs.get(i), -1);
      if (outputOf[i] < 0) {
        leaves.add(inputs.get(i));
        filters.add(inputFilters.size() == inputs.size() ? inputFilters.get(i) : RowFilter.ALL);
      }
    }
    ChangedRows changed = GenerationRows.absorb(rows, leafCounts, step, outputOf);
    return new BufferGeneration(id, output, leaves, filters, changed, System.nanoTime());
  }

  /** The heap its changed rows and its leaves' row filters take, about. */
  long heapBytes() {
    return changed.heapBytes() + filterBytes;
  }

  /** Its figures, with cached bytes from {@code cachedBytesByFile} (a cache walk; empty: none). */
  Figures figures(Map<String, Long> cachedBytesByFile) {
    long leafCached = leaves.stream().mapToLong(f -> cachedBytes(f, cachedBytesByFile)).sum();
    return new Figures(leaves.size(), leafBytes, leafCached, bytes(output), cachedBytes(output, cachedBytesByFile),
        changed.rowCount(), filterBytes);
  }

  /** A file's length, -1 without a reader (HBase's order puts those first among equal ids). */
  static long length(HStoreFile f) {
    StoreFileReader reader = f.getReader();
    return reader == null ? -1L : reader.length();
  }

  /** A file's bytes on disk as far as its reader knows, 0 without one. */
  static long bytes(HStoreFile f) {
    return Math.max(0, length(f));
  }

  private static long cachedBytes(HStoreFile f, Map<String, Long> cachedBytesByFile) {
    return Math.min(bytes(f), cachedBytesByFile.getOrDefault(f.getPath().getName(), 0L));
  }
}
