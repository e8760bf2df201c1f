package dev.cairn.cache;

import java.util.SplittableRandom;
import java.util.function.LongSupplier;

/**
 * Synthetic block-access traces replayed against a {@link BlockTable} alone, one thread, blocks
 * of {@value #BLOCK} bytes: the hit ratio a policy gets on a trace's shape, without an engine
 * around it. Deterministic for a seed.
 */
final class CacheTraces {
  static final int BLOCK = 4096;

  private CacheTraces() {}

  /** The hit ratio of {@code accesses} block numbers drawn from {@code trace}, after {@code warmup}. */
  static double hitRatio(BlockTable table, LongSupplier trace, int warmup, int accesses) {
    long hits = 0;
    for (int i = 0; i < warmup + accesses; i++) {
      BlockKey key = new BlockKey(1, trace.getAsLong() * BLOCK);
      SharedBlock cached = table.get(key);
      if (cached != null) {
        if (i >= warmup) {
          hits++;
        }
      } else {
        table.computeIfAbsent(key, k -> block());
      }
    }
    return (double) hits / accesses;
  }

  /** How a replay caches the blocks a trace writes (a flush's output under flush caching). */
  enum Writes {
    /** Not at all: only reads that missed cache blocks. */
    NOT_CACHED,
    /** As a read that missed would ({@link BlockTable#computeIfAbsent}). */
    AS_READS,
    /** As written blocks ({@link BlockTable#computeIfAbsentWritten}). */
    AS_WRITTEN
  }

  /**
   * The hit ratio of {@code accesses} reads drawn from {@code trace}, after {@code warmup}, where
   * the trace also writes: a value {@code ~b} (negative) writes block {@code b}, cached as {@code
   * writes} says and not counted as an access.
   */
  static double hitRatio(BlockTable table, LongSupplier trace, Writes writes, int warmup, int accesses) {
    long hits = 0;
    for (int i = 0; i < warmup + accesses; ) {
      long next = trace.getAsLong();
      if (next < 0) {
        BlockKey key = new BlockKey(1, ~next * BLOCK);
        switch (writes) {
          case NOT_CACHED -> { }
          case AS_READS -> table.computeIfAbsent(key, k -> block());
          case AS_WRITTEN -> table.computeIfAbsentWritten(key, k -> block());
        }
        continue;
      }
      BlockKey key = new BlockKey(1, next * BLOCK);
      if (table.get(key) != null) {
        if (i >= warmup) {
          hits++;
        }
      } else {
        table.computeIfAbsent(key, k -> block());
      }
      i++;
    }
    return (double) hits / accesses;
  }

  /** {@link #hitRatioOverRotations} for a trace that writes, its writes cached as {@code writes} says. */
  static double hitRatioOverRotations(BlockTable table, LongSupplier trace, Writes writes, int cacheBlocks) {
    return hitRatio(table, trace, writes, cacheBlocks * WARMUP_ROTATIONS, cacheBlocks * MEASURED_ROTATIONS);
  }

  /** Rotations of the cache's blocks a trace warms for, and is then measured over. */
  static final int WARMUP_ROTATIONS = 20;
  static final int MEASURED_ROTATIONS = 100;

  /**
   * The hit ratio of {@code trace} on {@code table}, a cache of {@code cacheBlocks}, over {@value
   * #MEASURED_ROTATIONS} rotations of its blocks after {@value #WARMUP_ROTATIONS}.
   */
  static double hitRatioOverRotations(BlockTable table, LongSupplier trace, int cacheBlocks) {
    return hitRatio(table, trace, cacheBlocks * WARMUP_ROTATIONS, cacheBlocks * MEASURED_ROTATIONS);
  }

  /** The clock with its window fixed at its least: the policy before docs/decisions/0017. */
  static ClockBlockTable fixedWindowClock(long capacityBytes) {
    int percent = ClockBlockTable.MIN_WINDOW_PERCENT;
    return new ClockBlockTable(capacityBytes, percent, percent, releasing());
  }

  /** Zipfian 0.99 over ten times the cache, a fifth of the accesses in one-off scans of 100. */
  static LongSupplier scannedZipfian(int cacheBlocks) {
    return withScans(2, zipfian(1, cacheBlocks * 10, 0.99), 0.2, 100);
  }

  /** A table's removal listener that drops the table's reference. */
  static BlockTable.RemovalListener releasing() {
    return (key, block, forRoom) -> block.release();
  }

  private static SharedBlock block() {
    return BlockCacheTraceReplay.standIn(BLOCK);
  }

  /**
   * The Latest workloads' shape: a new block every {@code newEvery} accesses (data just written,
   * or rewritten at a new address by a compaction); {@code hotShare} of the accesses go uniformly
   * to the newest {@code hot} blocks, the rest uniformly to every block so far.
   */
  static LongSupplier latest(long seed, int hot, int newEvery, double hotShare) {
    SplittableRandom random = new SplittableRandom(seed);
    return new LongSupplier() {
      long newest = hot;
      long served;

      @Override
      public long getAsLong() {
        if (++served % newEvery == 0) {
          newest++;
        }
        return random.nextDouble() < hotShare ? newest - 1 - random.nextInt(hot) : random.nextLong(newest);
      }
    };
  }

  /**
   * {@link #latest} where the new blocks are written (as {@code ~block}) before they are read, in
   * batches of {@code batchBlocks} with no read between them, a batch every {@code batchBlocks *
   * newEvery} reads. A batch of one spreads the writes out; a batch of a memtable's blocks is a
   * flush, which a cache judging by recent returns may see differently.
   */
  static LongSupplier latestWritten(long seed, int hot, int newEvery, double hotShare, int batchBlocks) {
    SplittableRandom random = new SplittableRandom(seed);
    return new LongSupplier() {
      long newest = hot;
      long reads;
      int toWrite;

      @Override
      public long getAsLong() {
        if (toWrite > 0) {
          toWrite--;
          return ~newest++;
        }
        if (++reads % ((long) batchBlocks * newEvery) == 0) {
          toWrite = batchBlocks;
        }
        return random.nextDouble() < hotShare ? newest - 1 - random.nextInt(hot) : random.nextLong(newest);
      }
    };
  }

  /**
   * {@code reads}, with a new block written (as {@code ~block}) every {@code writeEvery} reads
   * that is never read: data written apart from what is read.
   */
  static LongSupplier writtenApart(LongSupplier reads, int writeEvery) {
    return new LongSupplier() {
      long served;
      long written = 1L << 42;

      @Override
      public long getAsLong() {
        return ++served % (writeEvery + 1) == 0 ? ~written++ : reads.getAsLong();
      }
    };
  }

  /** Zipfian (skew {@code theta}) over {@code n} blocks, the popular ones scattered. */
  static LongSupplier zipfian(long seed, int n, double theta) {
    SplittableRandom random = new SplittableRandom(seed);
    double[] cumulative = new double[n];
    double sum = 0;
    for (int i = 0; i < n; i++) {
      sum += 1 / Math.pow(i + 1, theta);
      cumulative[i] = sum;
    }
    double total = sum;
    return () -> {
      double u = random.nextDouble() * total;
      int lo = 0;
      int hi = n - 1;
      while (lo < hi) {
        int mid = (lo + hi) >>> 1;
        if (cumulative[mid] < u) {
          lo = mid + 1;
        } else {
          hi = mid;
        }
      }
      return (lo * 0x9E3779B97F4A7C15L >>> 1) % n; // the rank's block, scattered
    };
  }

  /**
   * {@code base} with scans mixed in: a {@code scanShare} of the accesses walk runs of {@code
   * scanLength} blocks never read before or after (a range read, a compaction's input).
   */
  static LongSupplier withScans(long seed, LongSupplier base, double scanShare, int scanLength) {
    SplittableRandom random = new SplittableRandom(seed);
    return new LongSupplier() {
      long next = 1L << 40;
      int left;

      @Override
      public long getAsLong() {
        if (left == 0 && random.nextDouble() < scanShare / scanLength) {
          left = scanLength;
        }
        if (left > 0) {
          left--;
          return next++;
        }
        return base.getAsLong();
      }
    };
  }

  /** Half the accesses loop over 1.2 times the cache's blocks in order (LRU's worst case), half zipfian. */
  static LongSupplier loopAndZipfian(long seed, int cacheBlocks) {
    SplittableRandom random = new SplittableRandom(seed);
    LongSupplier zipfian = zipfian(1, cacheBlocks * 10, 0.99);
    long loop = cacheBlocks * 12L / 10;
    return new LongSupplier() {
      long next;

      @Override
      public long getAsLong() {
        return random.nextDouble() < 0.5 ? (1L << 41) + next++ % loop : zipfian.getAsLong();
      }
    };
  }

  /** Zipfian 0.99 over ten times the cache, whose blocks are all new every five rotations of the cache. */
  static LongSupplier shiftingZipfian(int cacheBlocks) {
    LongSupplier zipfian = zipfian(1, cacheBlocks * 10, 0.99);
    return new LongSupplier() {
      long served;

      @Override
      public long getAsLong() {
        return zipfian.getAsLong() + ((served++ / (cacheBlocks * 5L)) << 32);
      }
    };
  }
}
