package dev.cairn.fs;

import java.util.concurrent.atomic.LongAdder;

/**
 * Bytes read and written, by {@link IoPurpose} and, for compaction, by output level; and
 * compactions' read calls by output level (one per block or read-ahead span: on a device that
 * serves a fixed number of reads a second, calls rather than bytes are what a merge costs it).
 * Thread-safe; counters only grow.
 */
public final class IoStats {
  /** Levels 0..MAX_LEVELS-1 are tracked per level for compaction. */
  public static final int MAX_LEVELS = 8;

  private final LongAdder[] written = newAdders(IoPurpose.values().length);
  private final LongAdder[] read = newAdders(IoPurpose.values().length);
  private final LongAdder[] compactionWrittenByLevel = newAdders(MAX_LEVELS);
  private final LongAdder[] compactionReadByLevel = newAdders(MAX_LEVELS);
  private final LongAdder[] compactionReadCallsByLevel = newAdders(MAX_LEVELS);

  private static LongAdder[] newAdders(int n) {
    LongAdder[] a = new LongAdder[n];
    for (int i = 0; i < n; i++) {
      a[i] = new LongAdder();
    }
    return a;
  }

  public void recordWrite(IoTag tag, long bytes) {
    written[tag.purpose().ordinal()].add(bytes);
    if (tag.purpose() == IoPurpose.COMPACTION && tag.level() >= 0 && tag.level() < MAX_LEVELS) {
      compactionWrittenByLevel[tag.level()].add(bytes);
    }
  }

  /** One read call that returned {@code bytes}. */
  public void recordRead(IoTag tag, long bytes) {
    read[tag.purpose().ordinal()].add(bytes);
    if (tag.purpose() == IoPurpose.COMPACTION && tag.level() >= 0 && tag.level() < MAX_LEVELS) {
      compactionReadByLevel[tag.level()].add(bytes);
      compactionReadCallsByLevel[tag.level()].increment();
    }
  }

  public long bytesWritten(IoPurpose purpose) {
    return written[purpose.ordinal()].sum();
  }

  public long bytesRead(IoPurpose purpose) {
    return read[purpose.ordinal()].sum();
  }

  public long compactionBytesWritten(int level) {
    return compactionWrittenByLevel[level].sum();
  }

  public long compactionBytesRead(int level) {
    return compactionReadByLevel[level].sum();
  }

  /** Read calls of compactions whose output went into {@code level}. */
  public long compactionReadCalls(int level) {
    return compactionReadCallsByLevel[level].sum();
  }

  /** Every byte written to the device, whatever the purpose. */
  public long totalBytesWritten() {
    long sum = 0;
    for (LongAdder a : written) {
      sum += a.sum();
    }
    return sum;
  }

  public long totalBytesRead() {
    long sum = 0;
    for (LongAdder a : read) {
      sum += a.sum();
    }
    return sum;
  }
}
