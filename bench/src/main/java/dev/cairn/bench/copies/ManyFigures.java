package dev.cairn.bench.copies;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * One configuration of the many-databases part: the load's throughput and what the process held
 * for it. Cache, memtable and stall figures are read when the last put returns, before any
 * database closes.
 *
 * @param configuration {@link ManyDatabases.Configuration#label()}
 * @param databases databases open at once
 * @param puts puts over all of them
 * @param loadSeconds from the first put to the last one's return
 * @param heapPeakBytes the largest heap in use sampled from the first open to the last put
 *     (garbage included)
 * @param heapAfterGcBytes heap in use after a full collection at the end of the load (memtables included)
 * @param cacheBytes bytes of blocks in the block caches (off the heap): each database's summed, or
 *     the one shared cache's
 * @param memtableBytes bytes in the databases' active memtables (on the heap, part of both heap figures)
 * @param directBeforeBytes direct memory in use before the first open: what the earlier parts' caches
 *     left in the process-wide pool, free for these databases' blocks
 * @param directPeakBytes the largest direct memory sampled (the caches' pools, free space included)
 * @param threadsBefore the JVM's live threads before the first open
 * @param threadsPeak its most live threads from the first open to the last put (the writers and the sampler included)
 * @param stallSeconds the time writers were stalled, summed over the databases ({@code Stats.stalls()})
 */
record ManyFigures(String configuration, int databases, long puts, double loadSeconds, long heapPeakBytes,
    long heapAfterGcBytes, long cacheBytes, long memtableBytes, long directBeforeBytes, long directPeakBytes,
    int threadsBefore, int threadsPeak, double stallSeconds) {

  double putsPerSecond() {
    return puts / loadSeconds;
  }

  /**
   * What the configuration held at its peak: the heap's peak plus the blocks cached off it. The
   * memtables are on the heap, inside that peak, and are not added again.
   */
  long heldPeakBytes() {
    return heapPeakBytes + cacheBytes;
  }

  /** The same once the garbage is collected: what the databases keep. */
  long heldAfterGcBytes() {
    return heapAfterGcBytes + cacheBytes;
  }

  /** One progress line. */
  String line() {
    return String.format(Locale.ROOT, "copies: %d databases, %s: %,.0f puts/s; heap peak %.0f MiB, after GC %.0f MiB;"
            + " cache %.0f MiB; memtables %.0f MiB; threads %d (before %d); stalls %.1f s",
        databases, configuration, putsPerSecond(), mib(heapPeakBytes), mib(heapAfterGcBytes), mib(cacheBytes),
        mib(memtableBytes), threadsPeak, threadsBefore, stallSeconds);
  }

  private static double mib(long bytes) {
    return bytes / 1048576.0;
  }

  Map<String, Object> toJson() {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("configuration", configuration);
    m.put("databases", databases);
    m.put("puts", puts);
    m.put("load_seconds", loadSeconds);
    m.put("puts_per_s", putsPerSecond());
    m.put("heap_peak_bytes", heapPeakBytes);
    m.put("heap_after_gc_bytes", heapAfterGcBytes);
    m.put("cache_bytes", cacheBytes);
    m.put("memtable_bytes", memtableBytes);
    m.put("held_peak_bytes", heldPeakBytes());
    m.put("held_after_gc_bytes", heldAfterGcBytes());
    m.put("direct_before_bytes", directBeforeBytes);
    m.put("direct_peak_bytes", directPeakBytes);
    m.put("threads_before", threadsBefore);
    m.put("threads_peak", threadsPeak);
    m.put("stall_seconds", stallSeconds);
    return m;
  }
}
