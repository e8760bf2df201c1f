package dev.cairn.cache;

import static dev.cairn.cache.CacheTraces.fixedWindowClock;
import static dev.cairn.cache.CacheTraces.hitRatioOverRotations;
import static dev.cairn.cache.CacheTraces.releasing;
import static dev.cairn.cache.CacheTraces.scannedZipfian;

import dev.cairn.cache.CacheTraces.Writes;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * Hit ratios of the clock with its window fixed at {@value ClockBlockTable#MIN_WINDOW_PERCENT}%,
 * the clock as it ships (the window moving), and LRU, on {@link CacheTraces}' shapes; and the
 * clock's window after a phase of new blocks then a steady skew (the figures behind decision
 * 0017); and on traces that also write, each policy with the written blocks not cached, cached as
 * reads and (the clock) cached as written (flush caching: decision 0020). One thread,
 * deterministic. Run from the repository's root after {@code mvn install}:
 *
 * <pre>
 * mvn -q -o -pl cache dependency:build-classpath -Dmdep.outputFile=/tmp/cp.txt
 * java -cp cache/target/classes:cache/target/test-classes:$(cat /tmp/cp.txt) dev.cairn.cache.CacheTraceReport 16 128
 * </pre>
 *
 * The arguments are cache sizes in MiB; each trace runs twenty rotations of the cache's blocks to
 * warm, then a hundred measured.
 */
public final class CacheTraceReport {
  private CacheTraceReport() {}

  public static void main(String[] args) {
    for (String arg : args.length == 0 ? new String[] {"16"} : args) {
      report(Long.parseLong(arg) << 20);
    }
  }

  private static void report(long capacity) {
    int blocks = (int) (capacity / CacheTraces.BLOCK);
    System.out.printf("%n%d MiB (%d blocks of %d bytes)%n", capacity >> 20, blocks, CacheTraces.BLOCK);
    System.out.println("| trace | fixed 1% window | window moving | its window at the end | LRU |");
    System.out.println("|---|---|---|---|---|");
    for (Map.Entry<String, Supplier<LongSupplier>> trace : traces(blocks).entrySet()) {
      double fixed = hitRatioOverRotations(fixedWindowClock(capacity), trace.getValue().get(), blocks);
      ClockBlockTable moving = new ClockBlockTable(capacity, releasing());
      double adaptive = hitRatioOverRotations(moving, trace.getValue().get(), blocks);
      LruBlockTable lruTable = new LruBlockTable(capacity, releasing());
      double lru = hitRatioOverRotations(lruTable, trace.getValue().get(), blocks);
      System.out.printf("| %s | %.4f | %.4f | %.1f%% | %.4f |%n", trace.getKey(), fixed, adaptive,
          100.0 * moving.windowCapacity() / capacity, lru);
    }
    reportWrites(capacity, blocks);
    ClockBlockTable moving = new ClockBlockTable(capacity, releasing());
    double latest = hitRatioOverRotations(moving, CacheTraces.latest(1, blocks / 2, 20, 0.98), blocks);
    double grown = (double) moving.windowCapacity() / capacity;
    double after = hitRatioOverRotations(moving, scannedZipfian(blocks), blocks);
    double fixedAfter = hitRatioOverRotations(fixedWindowClock(capacity), scannedZipfian(blocks), blocks);
    double shrunk = (double) moving.windowCapacity() / capacity;
    System.out.printf("phase change: latest %.4f, window %.1f%%; then zipfian+scans %.4f, window %.1f%%"
        + " (fixed window: %.4f)%n", latest, 100 * grown, after, 100 * shrunk, fixedAfter);
  }

  /** Traces that write as well as read: each policy with its writes not cached, and cached. */
  private static void reportWrites(long capacity, int blocks) {
    System.out.println();
    System.out.println("| trace that writes | clock, writes not cached | clock, cached as reads"
        + " | clock, cached as written | LRU, not cached | LRU, cached |");
    System.out.println("|---|---|---|---|---|---|");
    for (Map.Entry<String, Supplier<LongSupplier>> trace : writingTraces(blocks).entrySet()) {
      System.out.printf("| %s | %.4f | %.4f | %.4f | %.4f | %.4f |%n", trace.getKey(),
          hitRatioOverRotations(new ClockBlockTable(capacity, releasing()), trace.getValue().get(),
              Writes.NOT_CACHED, blocks),
          hitRatioOverRotations(new ClockBlockTable(capacity, releasing()), trace.getValue().get(),
              Writes.AS_READS, blocks),
          hitRatioOverRotations(new ClockBlockTable(capacity, releasing()), trace.getValue().get(),
              Writes.AS_WRITTEN, blocks),
          hitRatioOverRotations(new LruBlockTable(capacity, releasing()), trace.getValue().get(),
              Writes.NOT_CACHED, blocks),
          hitRatioOverRotations(new LruBlockTable(capacity, releasing()), trace.getValue().get(),
              Writes.AS_WRITTEN, blocks));
    }
  }

  private static Map<String, Supplier<LongSupplier>> writingTraces(int blocks) {
    Map<String, Supplier<LongSupplier>> traces = new LinkedHashMap<>();
    traces.put("latest: half the cache hot, a block written every 20 reads",
        () -> CacheTraces.latestWritten(1, blocks / 2, 20, 0.98, 1));
    traces.put("latest, faster: 60% hot, a block written every 3 reads",
        () -> CacheTraces.latestWritten(1, blocks * 6 / 10, 3, 0.98, 1));
    traces.put("latest, written in flushes of a quarter of the cache, a block every 20 reads",
        () -> CacheTraces.latestWritten(1, blocks / 2, 20, 0.98, blocks / 4));
    traces.put("latest, written in flushes of a quarter of the cache, a block every 3 reads",
        () -> CacheTraces.latestWritten(1, blocks * 6 / 10, 3, 0.98, blocks / 4));
    traces.put("zipfian 0.99 over 3x the cache, a block never read written every 3 reads",
        () -> CacheTraces.writtenApart(CacheTraces.zipfian(1, blocks * 3, 0.99), 3));
    traces.put("zipfian 0.99 over 10x the cache, a block never read written every 20 reads",
        () -> CacheTraces.writtenApart(CacheTraces.zipfian(1, blocks * 10, 0.99), 20));
    return traces;
  }

  private static Map<String, Supplier<LongSupplier>> traces(int blocks) {
    Map<String, Supplier<LongSupplier>> traces = new LinkedHashMap<>();
    traces.put("latest: half the cache hot, a new block every 20 reads",
        () -> CacheTraces.latest(1, blocks / 2, 20, 0.98));
    traces.put("latest, faster: 60% hot, a new block every 3 reads",
        () -> CacheTraces.latest(1, blocks * 6 / 10, 3, 0.98));
    traces.put("zipfian 0.99 over 10x the cache", () -> CacheTraces.zipfian(1, blocks * 10, 0.99));
    traces.put("the same with 20% of reads in one-off scans of 100", () -> scannedZipfian(blocks));
    traces.put("zipfian 0.99 over 3x the cache", () -> CacheTraces.zipfian(1, blocks * 3, 0.99));
    traces.put("half a loop over 1.2x the cache, half zipfian", () -> CacheTraces.loopAndZipfian(5, blocks));
    traces.put("zipfian whose popular blocks change every 5 rotations",
        () -> CacheTraces.shiftingZipfian(blocks));
    return traces;
  }
}
