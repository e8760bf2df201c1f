package dev.cairn.bench.engine.node;

import java.io.IOException;
import java.util.Map;

/**
 * Every {@value #TICK_MILLIS} ms: reads the group's {@code memory.usage_in_bytes} and {@code
 * memory.stat}, and sets the limit so that the group's reclaimable page cache can hold about
 * {@code allowance} and no more ({@link #limitFor}).
 *
 * <p>Reclaimable is the clean part of the file LRU lists ({@code active_file + inactive_file -
 * dirty - writeback}); everything else the group holds stays where it is: anonymous memory, pages
 * Cassandra's {@code mlockall} pinned at start (the heap, the committed code cache, and any file
 * pages then mapped, {@code unevictable}), kernel memory, dirty and writeback pages. Counting those
 * as part of the allowance leaves a group at its limit with nothing to reclaim, and there the
 * kernel fails its own charges (an mmap, a new thread, a class load) with ENOMEM and the JVM dies.
 * Keeps the figures for the node's summary.
 */
public final class NodeMemoryMonitor {
  static final long TICK_MILLIS = 250;
  private static final long MIB = 1L << 20;
  private final MemoryCgroup group;
  private final long allowance;
  private final Thread thread;
  private volatile boolean running = true;
  private long samples;
  private double cacheSum;
  private long cacheMax;
  private long rssMax;
  private long limitMin = Long.MAX_VALUE;
  private long limitMax;
  private long refusals;
  /** Ticks that found the node waiting at the limit and raised it above its usage. */
  private long oomWaits;
  private long dirtyMax;
  private long unevictableMax;
  private String lastError;

  public NodeMemoryMonitor(MemoryCgroup group, long allowance) {
    this.group = group;
    this.allowance = allowance;
    this.thread = new Thread(this::loop, "node-memory");
    this.thread.setDaemon(true);
  }

  public void start() {
    tick();
    thread.start();
  }

  public void stop() {
    running = false;
    thread.interrupt();
    try {
      thread.join(5000);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private void loop() {
    while (running) {
      try {
        Thread.sleep(TICK_MILLIS);
      } catch (InterruptedException e) {
        return;
      }
      tick();
    }
  }

  /**
   * The limit that leaves {@code allowance} bytes for the clean file pages the kernel can reclaim:
   * what the group uses that cannot be reclaimed now, plus the allowance.
   */
  static long limitFor(long usage, Map<String, Long> stat, long allowance) {
    return usage - reclaimable(stat) + allowance;
  }

  /** Clean pages on the file LRU lists: what the kernel can drop to meet a lower limit. */
  static long reclaimable(Map<String, Long> stat) {
    long file = stat.getOrDefault("active_file", 0L) + stat.getOrDefault("inactive_file", 0L);
    return Math.max(0, file - unreclaimableDirty(stat));
  }

  private static long unreclaimableDirty(Map<String, Long> stat) {
    return stat.getOrDefault("dirty", 0L) + stat.getOrDefault("writeback", 0L);
  }

  private synchronized void tick() {
    try {
      long usage = group.usage();
      Map<String, Long> stat = group.stat();
      long rss = stat.getOrDefault("rss", 0L);
      long cache = reclaimable(stat);
      long target = limitFor(usage, stat, allowance);
      if (group.underOom()) {
        // The node waits at the limit (the OOM killer is off) and the page cache it holds
        // cannot be dropped: let it go on, above what it uses now; later ticks come down again.
        oomWaits++;
        target = Math.max(target, group.usage() + 64 * MIB);
      }
      try {
        group.setLimit(target);
      } catch (IOException e) {
        // The kernel could not reclaim enough (pages busy under I/O): come down part of the way.
        refusals++;
        lastError = "limit " + (target >> 20) + " MiB: " + e.getMessage();
        try {
          group.setLimit(Math.max(target, usage - 16 * MIB));
        } catch (IOException again) {
          // next tick
        }
      }
      long limit = group.limit();
      samples++;
      cacheSum += cache;
      cacheMax = Math.max(cacheMax, cache);
      rssMax = Math.max(rssMax, rss);
      dirtyMax = Math.max(dirtyMax, unreclaimableDirty(stat));
      unevictableMax = Math.max(unevictableMax, stat.getOrDefault("unevictable", 0L));
      limitMin = Math.min(limitMin, limit);
      limitMax = Math.max(limitMax, limit);
    } catch (IOException | RuntimeException e) {
      lastError = e.toString();
    }
  }

  public synchronized String summary() {
    long oom = group.oomKills();
    String maxUsage;
    try {
      maxUsage = Long.toString(group.maxUsage() / MIB);
    } catch (IOException e) {
      maxUsage = "?";
    }
    return String.format(java.util.Locale.ROOT,
        "memory cgroup %s: limit = usage - reclaimable page cache + %d MiB, %d..%d MiB (lowering refused %d times);"
            + " reclaimable page cache mean %.1f MiB, max %d MiB (dirty + writeback max %d MiB); rss max %d MiB;"
            + " unevictable max %d MiB; max usage %s MiB;"
            + " OOM kills %s; waits at the limit %d%s",
        group.directory(), allowance / MIB, limitMin == Long.MAX_VALUE ? 0 : limitMin / MIB, limitMax / MIB,
        refusals, samples == 0 ? 0 : cacheSum / samples / MIB, cacheMax / MIB, dirtyMax / MIB, rssMax / MIB,
        unevictableMax / MIB, maxUsage, oom < 0 ? "n/a" : Long.toString(oom), oomWaits, lastError == null ? "" : "; last refusal: " + lastError);
  }

  public synchronized long cacheMaxBytes() {
    return cacheMax;
  }

  public synchronized double cacheMeanBytes() {
    return samples == 0 ? 0 : cacheSum / samples;
  }
}
