package dev.cairn.bench.engine.cassandra;

import java.io.IOException;
import java.util.Map;

/**
 * Every {@value #TICK_MILLIS} ms: the group's {@code rss}, {@code cache}, {@code dirty} and {@code
 * writeback}; sets the limit to {@code rss + dirty + writeback + allowance}, so the clean page
 * cache can hold at most about {@code allowance}. Pages that are dirty or under writeback are
 * outside the allowance because the kernel cannot reclaim them on demand: a group whose limit
 * leaves nothing reclaimable fails the kernel's own charges (an mmap, a new thread) with ENOMEM,
 * and the JVM dies. Keeps the figures for the node's summary.
 */
final class NodeMemoryMonitor {
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
  private String lastError;

  NodeMemoryMonitor(MemoryCgroup group, long allowance) {
    this.group = group;
    this.allowance = allowance;
    this.thread = new Thread(this::loop, "cassandra-node-memory");
    this.thread.setDaemon(true);
  }

  void start() {
    tick();
    thread.start();
  }

  void stop() {
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

  private synchronized void tick() {
    try {
      Map<String, Long> stat = group.stat();
      long rss = stat.getOrDefault("rss", 0L);
      long cache = stat.getOrDefault("cache", 0L);
      long unreclaimable = stat.getOrDefault("dirty", 0L) + stat.getOrDefault("writeback", 0L);
      long target = rss + unreclaimable + allowance;
      if (group.underOom()) {
        // The node waits at the limit (the OOM killer is off) and the page cache it holds
        // cannot be dropped: let it go on, above what it uses now; later ticks come down again.
        oomWaits++;
        target = Math.max(target, group.usage() + 64 * MIB);
      }
      try {
        group.setLimit(target);
      } catch (IOException e) {
        // The kernel could not reclaim enough (dirty or busy pages): come down part of the way.
        refusals++;
        lastError = "limit " + (target >> 20) + " MiB: " + e.getMessage();
        try {
          group.setLimit(Math.max(target, rss + cache - 16 * MIB));
        } catch (IOException again) {
          // next tick
        }
      }
      long limit = group.limit();
      samples++;
      cacheSum += cache;
      cacheMax = Math.max(cacheMax, cache);
      rssMax = Math.max(rssMax, rss);
      dirtyMax = Math.max(dirtyMax, unreclaimable);
      limitMin = Math.min(limitMin, limit);
      limitMax = Math.max(limitMax, limit);
    } catch (IOException | RuntimeException e) {
      lastError = e.toString();
    }
  }

  synchronized String summary() {
    long oom = group.oomKills();
    String maxUsage;
    try {
      maxUsage = Long.toString(group.maxUsage() / MIB);
    } catch (IOException e) {
      maxUsage = "?";
    }
    return String.format(java.util.Locale.ROOT,
        "memory cgroup %s: limit = rss + dirty + writeback + %d MiB, %d..%d MiB (lowering refused %d times); page cache mean"
            + " %.1f MiB, max %d MiB (dirty + writeback max %d MiB); rss max %d MiB; max usage %s MiB;"
            + " OOM kills %s; waits at the limit %d%s",
        group.directory(), allowance / MIB, limitMin == Long.MAX_VALUE ? 0 : limitMin / MIB, limitMax / MIB,
        refusals, samples == 0 ? 0 : cacheSum / samples / MIB, cacheMax / MIB, dirtyMax / MIB, rssMax / MIB,
        maxUsage, oom < 0 ? "n/a" : Long.toString(oom), oomWaits, lastError == null ? "" : "; last refusal: " + lastError);
  }

  synchronized long cacheMaxBytes() {
    return cacheMax;
  }

  synchronized double cacheMeanBytes() {
    return samples == 0 ? 0 : cacheSum / samples;
  }
}
