package dev.cairn.hbase;

import dev.cairn.hbase.buffer.GenerationTrim;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.hbase.regionserver.HStoreFile;

/**
 * The compaction buffer's generations a store holds, by their outputs ({@link BufferGeneration}),
 * with the trim's bookkeeping on them: what the trim judges, finding one by id, and retiring
 * those it names.
 *
 * <p>Immutable (but for each generation's read counters and sample of rows read): part of the
 * {@link BufferedStoreFileManager}'s state, which reads see through one volatile field and which
 * is replaced whole on each change. Whatever changes the generations builds the next value, for
 * the manager to install under the store's write lock.
 */
final class StoreGenerations {
  static final StoreGenerations NONE = new StoreGenerations(Map.of());

  private final Map<HStoreFile, BufferGeneration> byOutput;

  /** The generations of {@code byOutput}, copied. */
  StoreGenerations(Map<HStoreFile, BufferGeneration> byOutput) {
    this.byOutput = Map.copyOf(byOutput);
  }

  boolean isEmpty() {
    return byOutput.isEmpty();
  }

  int size() {
    return byOutput.size();
  }

  /** The generation whose output is {@code file}, or null. */
  BufferGeneration ofOutput(HStoreFile file) {
    return byOutput.get(file);
  }

  /** The generations, in no particular order. */
  Collection<BufferGeneration> all() {
    return byOutput.values();
  }

  /** The generations by output, in a map of the caller's to change. */
  Map<HStoreFile, BufferGeneration> byOutput() {
    return new HashMap<>(byOutput);
  }

  /** The generations as the trim sees them, their read counts reset for the next interval. */
  List<GenerationTrim.Generation> trimView(Map<String, Long> cachedBytesByFile, long nowNanos) {
    List<GenerationTrim.Generation> out = new ArrayList<>();
    for (BufferGeneration g : byOutput.values()) {
      BufferGeneration.Figures f = g.figures(cachedBytesByFile);
      out.add(new GenerationTrim.Generation(g.id, f.leafBytes(), f.leafCachedBytes(), f.outputBytes(),
          f.outputCachedBytes(), g.leafReads.sumThenReset(), g.outputReads.sumThenReset(),
          Math.max(0, (nowNanos - g.bornNanos) / 1_000_000)));
    }
    return out;
  }

  /** The generation {@code id} if held, else null. */
  BufferGeneration withId(long id) {
    return byOutput.values().stream().filter(g -> g.id == id).findFirst().orElse(null);
  }

  /**
   * The generations left once those {@code retirements} name (those held) are retired: their
   * leaves are marked compacted away and added to {@code compacted}, and each retirement is
   * counted in {@code stats} by its reason.
   */
  StoreGenerations retire(List<GenerationTrim.Retirement> retirements, List<HStoreFile> compacted, BufferStats stats) {
    Map<HStoreFile, BufferGeneration> left = new HashMap<>(byOutput);
    for (GenerationTrim.Retirement r : retirements) {
      BufferGeneration g = left.values().stream().filter(x -> x.id == r.id()).findFirst().orElse(null);
      if (g != null) {
        left.remove(g.output);
        BufferedStoreFileManager.markCompacted(g.leaves, compacted);
        stats.retired(r.reason());
      }
    }
    return new StoreGenerations(left);
  }
}
