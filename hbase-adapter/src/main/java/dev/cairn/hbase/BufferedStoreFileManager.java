package dev.cairn.hbase;

import dev.cairn.hbase.buffer.ChangedRows;
import dev.cairn.hbase.buffer.GenerationTrim;
import dev.cairn.hbase.buffer.RowFilter;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellComparator;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.KeyValue;
import org.apache.hadoop.hbase.regionserver.HStore;
import org.apache.hadoop.hbase.regionserver.HStoreFile;
import org.apache.hadoop.hbase.regionserver.StoreFileManager;
import org.apache.hadoop.hbase.regionserver.StoreFileReader;
import org.apache.hbase.thirdparty.com.google.common.collect.ImmutableCollection;
import org.apache.hbase.thirdparty.com.google.common.collect.ImmutableList;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The store's files, with a compaction buffer (docs/adapters/hbase.md, "The compaction buffer").
 * Beside the live files HBase compacts, counts and splits, it keeps <i>generations</i> ({@link
 * StoreGenerations}): a live compaction output and the earlier files that went into it (its
 * <i>leaves</i>: the inputs of the compactions that led to it, with no intermediate output),
 * together with the rows those compactions changed ({@link ChangedRows}).
 *
 * <p><b>The invariant.</b> For every row outside a generation's changed rows, the leaves hold
 * exactly the cells its output holds. A compaction only drops cells; where it drops none of a
 * row's, the output holds that row's input cells, and a compaction of an output and new files
 * keeps this (by induction, for the union of the leaves). So a read whose whole row range misses
 * the changed rows may read the leaves in place of the output and sees the same cells: the same
 * result for every get and scan, raw, versioned, time-ranged, filtered or with deletes and TTLs
 * in later files. {@link #getFilesForScan} does exactly that per generation; any other read gets
 * the output.
 *
 * <p><b>Where the leaves live.</b> Out of {@link #getStoreFiles}, so HBase never selects, counts,
 * sizes, splits or snapshots them (a compaction's inputs were already counted by its output); in
 * {@link #getCompactedfiles} and unmarked, so the discharger leaves them, a scanner switching
 * from pread to stream finds them by name, and close archives them. Retired (by the trim, or when
 * a compaction is not buffered), they are marked compacted-away like any compacted file, and the
 * discharger closes, evicts and archives them once no reader holds them.
 *
 * <p>Not thread-safe for updates, like HBase's own managers: HStore calls the updating methods
 * under the store's write lock, and the trim takes it ({@link #retire}). Reads see an immutable
 * state through one volatile field.
 */
final class BufferedStoreFileManager implements StoreFileManager {
  private static final Logger LOG = LoggerFactory.getLogger(BufferedStoreFileManager.class);

  /** HBase's order of store files (StoreFileComparators.SEQ_ID, package-private there). */
  static final Comparator<HStoreFile> SEQ_ID_ORDER = Comparator.comparingLong(HStoreFile::getMaxSequenceId)
      .thenComparing(Comparator.comparingLong(BufferGeneration::length).reversed())
      .thenComparingLong(f -> f.getBulkLoadTimestamp().orElse(Long.MAX_VALUE))
      .thenComparing(f -> f.getPath().getName());

  /** Everything the manager holds, replaced whole on each change. */
  private record State(List<HStoreFile> live, List<HStoreFile> compacted, StoreGenerations generations,
      List<HStoreFile> compactedView) {
    static State of(List<HStoreFile> live, List<HStoreFile> compacted, StoreGenerations generations) {
      List<HStoreFile> view = new ArrayList<>(compacted);
      generations.all().forEach(g -> view.addAll(g.leaves));
      view.sort(SEQ_ID_ORDER);
      return new State(List.copyOf(live), List.copyOf(compacted), generations, List.copyOf(view));
    }
  }

  private final CellComparator comparator;
  private final int blockingFileCount;
  private final int minFilesToCompact;
  private final CairnBufferStoreEngine engine;
  private final BufferStats stats;
  private volatile State state = State.of(List.of(), List.of(), StoreGenerations.NONE);
  /** Read every generation's output, never its leaves (a switch for tests and operators). */
  private volatile boolean outputsOnly;
  private long nextGenerationId = 1;

  BufferedStoreFileManager(CellComparator comparator, int blockingFileCount, int minFilesToCompact,
      CairnBufferStoreEngine engine, BufferStats stats) {
    this.comparator = comparator;
    this.blockingFileCount = blockingFileCount;
    this.minFilesToCompact = minFilesToCompact;
    this.engine = engine;
    this.stats = stats;
  }

  // ---- reads

  /**
   * The files a read of rows [{@code startRow}, {@code stopRow}] opens: the live files, with
   * each generation's output replaced by its leaves when no changed row of the generation lies
   * in the range, or, for a read of one row (a get), by its leaves less those the row's drop mask
   * names (those whose cells of the row the compactions all dropped) and those whose row filter
   * rules the row out (a leaf without the row adds nothing to its read). An empty bound is open; a
   * range whose bounds are reversed (a reversed scan) is read as [stop, start]; a range with one
   * empty bound counts as every row, since a reversed scan's open side is the other one.
   */
  @Override
  public Collection<HStoreFile> getFilesForScan(byte[] startRow, boolean includeStartRow, byte[] stopRow,
      boolean includeStopRow, boolean onlyLatestVersion) {
    State s = state;
    if (s.generations.isEmpty() || outputsOnly) {
      return s.live;
    }
    byte[] lo = startRow == null || startRow.length == 0 ? null : startRow;
    byte[] hi = stopRow == null || stopRow.length == 0 ? null : stopRow;
    if (lo == null || hi == null) {
      lo = null;
      hi = null;
    } else if (comparator.compareRows(lo, hi) > 0) {
      byte[] t = lo;
      lo = hi;
      hi = t;
    }
    boolean oneRow = lo != null && includeStartRow && includeStopRow && comparator.compareRows(lo, hi) == 0;
    long rowHash = oneRow ? RowFilter.hash(lo, 0, lo.length) : 0;
    List<HStoreFile> files = new ArrayList<>(s.live.size() + 4);
    for (HStoreFile f : s.live) {
      BufferGeneration g = s.generations.ofOutput(f);
      if (g == null) {
        files.add(f);
        continue;
      }
      long mask = oneRow ? g.changed.maskOf(lo)
          : g.changed.intersects(lo, hi) ? ChangedRows.PARTIAL : ChangedRows.UNCHANGED;
      if (mask == ChangedRows.PARTIAL) {
        g.outputReads.increment();
        stats.outputRead();
        files.add(f);
        continue;
      }
      g.leafReads.increment();
      if (lo != null) {
        g.recentReads.record(lo);
      }
      int skipped = 0;
      for (int i = 0; i < g.leaves.size(); i++) {
        boolean dropped = i < ChangedRows.MAX_INPUTS && (mask & ChangedRows.bit(i)) != 0;
        if (!dropped && (!oneRow || g.leafFilters.get(i).mightContain(rowHash))) {
          files.add(g.leaves.get(i));
        } else {
          skipped++;
        }
      }
      stats.leafRead(g.leaves.size() - skipped, skipped);
    }
    return files;
  }

  void setOutputsOnly(boolean outputsOnly) {
    this.outputsOnly = outputsOnly;
  }

  // ---- what HBase counts: the live files alone

  @Override
  public Collection<HStoreFile> getStoreFiles() {
    return state.live;
  }

  @Override
  public int getStorefileCount() {
    return state.live.size();
  }

  @Override
  public Collection<HStoreFile> getCompactedfiles() {
    return state.compactedView;
  }

  @Override
  public int getCompactedFilesCount() {
    return state.compactedView.size();
  }

  @Override
  public int getStoreCompactionPriority() {
    int priority = blockingFileCount - state.live.size();
    return priority == HStore.PRIORITY_USER ? priority + 1 : priority;
  }

  @Override
  public double getCompactionPressure() {
    int count = state.live.size();
    if (count <= minFilesToCompact) {
      return 0.0;
    }
    return (double) (count - minFilesToCompact) / (blockingFileCount - minFilesToCompact);
  }

  /** The middle row of the largest live file (HBase's rule; the leaves hold no other data). */
  @Override
  public Optional<byte[]> getSplitPoint() throws IOException {
    HStoreFile largest = null;
    for (HStoreFile f : state.live) {
      if (f.getReader() != null && (largest == null || f.getReader().length() > largest.getReader().length())) {
        largest = f;
      }
    }
    if (largest == null) {
      return Optional.empty();
    }
    StoreFileReader reader = largest.getReader();
    Optional<Cell> mid = reader.midKey();
    Optional<Cell> first = reader.getFirstKey();
    Optional<Cell> last = reader.getLastKey();
    if (mid.isEmpty() || first.isEmpty() || last.isEmpty()) {
      return Optional.empty();
    }
    if (comparator.compareRows(mid.get(), first.get()) == 0 || comparator.compareRows(mid.get(), last.get()) == 0) {
      return Optional.empty(); // one row fills the file: no split can divide it
    }
    return Optional.of(CellUtil.cloneRow(mid.get()));
  }

  /** Expired live files, never the newest (it holds the store's max sequence id). */
  @Override
  public Collection<HStoreFile> getUnneededFiles(long maxTs, List<HStoreFile> filesCompacting) {
    List<HStoreFile> files = state.live;
    return files.stream().limit(Math.max(0, files.size() - 1))
        .filter(f -> f.getReader().getMaxTimestamp() < maxTs && !filesCompacting.contains(f))
        .collect(Collectors.toList());
  }

  @Override
  public Iterator<HStoreFile> getCandidateFilesForRowKeyBefore(KeyValue targetKey) {
    List<HStoreFile> reversed = new ArrayList<>(state.live);
    Collections.reverse(reversed);
    return reversed.iterator();
  }

  @Override
  public Iterator<HStoreFile> updateCandidateFilesForRowKeyBefore(Iterator<HStoreFile> candidateFiles,
      KeyValue targetKey, Cell candidate) {
    return candidateFiles;
  }

  @Override
  public Comparator<HStoreFile> getStoreFileComparator() {
    return SEQ_ID_ORDER;
  }

  // ---- updates (under the store's write lock)

  @Override
  public void loadFiles(List<HStoreFile> storeFiles) {
    state = State.of(sorted(storeFiles), List.of(), StoreGenerations.NONE);
  }

  @Override
  public void insertNewFiles(Collection<HStoreFile> files) {
    State s = state;
    List<HStoreFile> live = new ArrayList<>(s.live);
    live.addAll(files);
    state = State.of(sorted(live), s.compacted, s.generations);
  }

  /**
   * A compaction's commit (or HBase dropping expired files, or replaying a compaction marker:
   * no results then, or no audit). A compaction with one output and an audit whose leaves fit
   * the space budget becomes a generation, absorbing the generations whose outputs it compacted;
   * otherwise its inputs are compacted away as HBase's own manager does, and so are the leaves
   * of any generation whose output was among them.
   */
  @Override
  public void addCompactionResults(Collection<HStoreFile> compactedFiles, Collection<HStoreFile> results) {
    State s = state;
    Set<HStoreFile> inputs = new HashSet<>(compactedFiles);
    List<HStoreFile> live = new ArrayList<>(s.live.size() + results.size());
    s.live.stream().filter(f -> !inputs.contains(f)).forEach(live::add);
    live.addAll(results);
    live = sorted(live);
    Map<HStoreFile, BufferGeneration> byOutput = s.generations.byOutput();
    List<BufferGeneration> absorbed = new ArrayList<>();
    for (HStoreFile f : compactedFiles) {
      BufferGeneration g = byOutput.remove(f);
      if (g != null) {
        absorbed.add(g);
      }
    }
    List<HStoreFile> compacted = new ArrayList<>(s.compacted);
    BufferGeneration next = buffered(compactedFiles, results, absorbed, live, byOutput);
    if (next != null) {
      byOutput.put(next.output, next);
      for (BufferGeneration g : absorbed) {
        markCompacted(List.of(g.output), compacted); // an intermediate output: its rows are in the leaves
      }
    } else {
      markCompacted(compactedFiles, compacted);
      for (BufferGeneration g : absorbed) {
        markCompacted(g.leaves, compacted);
        stats.endedByUnbufferedCompaction();
      }
    }
    state = State.of(live, compacted, new StoreGenerations(byOutput));
  }

  /** The generation this commit makes, or null when it is not buffered (the reason goes to the stats). */
  private BufferGeneration buffered(Collection<HStoreFile> inputs, Collection<HStoreFile> results, List<BufferGeneration> absorbed,
      List<HStoreFile> live, Map<HStoreFile, BufferGeneration> others) {
    if (!engine.buffering() || results.isEmpty()) {
      return null; // buffering is off, or HBase dropped expired files: nothing to buffer
    }
    HStoreFile output = results.iterator().next();
    CairnBufferStoreEngine.Audit audit = engine.takeAudit(output.getPath().getName());
    String why = null;
    List<HStoreFile> ordered = null;
    if (results.size() != 1) {
      why = results.size() + " outputs";
    } else if (audit.changed() == null) {
      why = audit.failure();
    } else if (inputs.stream().anyMatch(HStoreFile::isReference)) {
      why = "a split reference among the inputs";
    } else {
      ordered = inAuditOrder(inputs, audit.inputNames());
      if (ordered == null) {
        why = "the audit's inputs " + audit.inputNames() + " are not the committed ones";
      }
    }
    if (why == null) {
      BufferGeneration next = BufferGeneration.compose(nextGenerationId++, ordered, audit.rowFilters(), output,
          audit.changed(), absorbed);
      long extra = next.leafBytes + others.values().stream().mapToLong(g -> g.leafBytes).sum();
      long liveBytes = live.stream().mapToLong(BufferGeneration::bytes).sum();
      // The server's buffers now hold the absorbed generations, which the new one replaces.
      long heap = engine.serverBufferHeapBytes() - absorbed.stream().mapToLong(BufferGeneration::heapBytes).sum()
          + next.heapBytes();
      if (!GenerationTrim.withinBudget(extra, liveBytes, engine.options().trimConfig())) {
        why = "over the space budget (" + extra + " buffered bytes beside " + liveBytes + " live)";
      } else if (heap > engine.options().maxHeapBytes()) {
        why = "over the server's heap budget (" + heap + " bytes of changed rows and row filters, "
            + BufferOptions.MAX_HEAP_MB + " " + engine.options().maxHeapMb() + ")";
      } else {
        stats.buffered();
        return next;
      }
    }
    stats.notBuffered(why);
    LOG.debug("cairn: compaction into {} not buffered: {}", output, why);
    return null;
  }

  /** The committed inputs in the audit's order, or null when they are not the audit's files. */
  private static List<HStoreFile> inAuditOrder(Collection<HStoreFile> inputs, List<String> names) {
    Map<String, HStoreFile> byName = new HashMap<>();
    inputs.forEach(f -> byName.put(f.getPath().getName(), f));
    if (byName.size() != names.size() || !byName.keySet().containsAll(names)) {
      return null;
    }
    List<HStoreFile> ordered = new ArrayList<>();
    names.forEach(n -> ordered.add(byName.get(n)));
    return ordered;
  }

  @Override
  public void removeCompactedFiles(Collection<HStoreFile> removed) {
    State s = state;
    Set<HStoreFile> gone = new HashSet<>(removed);
    List<HStoreFile> compacted = s.compacted.stream().filter(f -> !gone.contains(f)).collect(Collectors.toList());
    state = State.of(s.live, compacted, s.generations);
  }

  @Override
  public ImmutableCollection<HStoreFile> clearFiles() {
    State s = state;
    state = State.of(List.of(), s.compacted, s.generations);
    return ImmutableList.copyOf(s.live);
  }

  /** On close: every leaf is compacted away with the rest, so close archives it (the buffer is volatile). */
  @Override
  public Collection<HStoreFile> clearCompactedFiles() {
    State s = state;
    List<HStoreFile> all = new ArrayList<>(s.compacted);
    for (BufferGeneration g : s.generations.all()) {
      markCompacted(g.leaves, all);
    }
    state = State.of(s.live, List.of(), StoreGenerations.NONE);
    return all;
  }

  // ---- the trim

  /** The generations as the trim sees them, their read counts reset for the next interval. */
  List<GenerationTrim.Generation> trimView(Map<String, Long> cachedBytesByFile, long nowNanos) {
    return state.generations.trimView(cachedBytesByFile, nowNanos);
  }

  long liveBytes() {
    return state.live.stream().mapToLong(BufferGeneration::bytes).sum();
  }

  /**
   * Retires the generations {@code retirements} name (those still held): their leaves are
   * compacted away and reads of their rows go to the outputs. Takes the store's write lock, so no
   * read is choosing files meanwhile (HStore raises the chosen files' reference counts under the
   * read lock, and the discharger archives a marked file only once its count is zero).
   */
  int retire(List<GenerationTrim.Retirement> retirements) {
    if (retirements.isEmpty()) {
      return 0;
    }
    engine.writeLock();
    try {
      State s = state;
      List<HStoreFile> compacted = new ArrayList<>(s.compacted);
      StoreGenerations left = s.generations.retire(retirements, compacted, stats);
      state = State.of(s.live, compacted, left);
      return s.generations.size() - left.size();
    } finally {
      engine.writeUnlock();
    }
  }

  /** The generation {@code id} if still held, else null. */
  BufferGeneration generation(long id) {
    return state.generations.withId(id);
  }

  /** The generations now (for metrics and tests). */
  Collection<BufferGeneration> generations() {
    return state.generations.all();
  }

  /** Marks {@code files} compacted away, as HBase's own manager does, and adds them to {@code compacted}. */
  static void markCompacted(Collection<HStoreFile> files, List<HStoreFile> compacted) {
    for (HStoreFile f : files) {
      f.markCompactedAway();
      compacted.add(f);
    }
  }

  private static List<HStoreFile> sorted(Collection<HStoreFile> files) {
    List<HStoreFile> out = new ArrayList<>(files);
    out.sort(SEQ_ID_ORDER);
    return out;
  }
}
