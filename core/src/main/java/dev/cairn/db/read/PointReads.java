package dev.cairn.db.read;

import dev.cairn.Options;
import dev.cairn.Stats;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.LongAdder;

/**
 * Where the point reads of each level ended and what they cost (docs/execution.md, "Reads").
 * For every level: the reads it answered and the data blocks they read from the device there
 * (block cache misses), split between the level's own files and its compaction buffer's files;
 * this is where a style that loses hit ratio shows which level loses it. For a level with a
 * compaction buffer, also how the walk ended: a buffer file answered, a removed marker stopped
 * it, or it found nothing; in the last two the level's own file was read. Walks stopped at
 * markers read the level's newest, least cached files.
 */
public final class PointReads {
  /** For reads no one counts (internal lookups). */
  static final PointReads UNCOUNTED = new PointReads();

  private final LongAdder[] served = adders();
  private final LongAdder[] stoppedAtMarker = adders();
  private final LongAdder[] fellThrough = adders();
  private final LongAdder[] answered = adders();
  private final LongAdder[] blockReads = adders();
  private final LongAdder[] bufferBlockReads = adders();
  /**
   * The time of every counted read's block reads, read and verified: what a miss costs
   * ({@code MissCostMeter}). Their number is the sum of {@link #blockReads} over the levels.
   */
  private final LongAdder blockReadNanos = new LongAdder();
  /** L0 tables numbered from here on are fresh ({@link #countFreshFrom}); none until asked. */
  private volatile long freshFrom = Long.MAX_VALUE;
  private final LongAdder answeredFresh = new LongAdder();

  private static LongAdder[] adders() {
    LongAdder[] out = new LongAdder[Options.MAX_LEVELS];
    for (int i = 0; i < out.length; i++) {
      out[i] = new LongAdder();
    }
    return out;
  }

  void served(int level) {
    served[level].increment();
  }

  void stoppedAtMarker(int level) {
    stoppedAtMarker[level].increment();
  }

  void fellThrough(int level) {
    fellThrough[level].increment();
  }

  /** A read ended at {@code level}'s files or buffer with a value or a deletion. */
  void answered(int level) {
    answered[level].increment();
  }

  /** A read ended at the L0 table numbered {@code fileNumber}; counted fresh if it is. */
  void answeredInL0(long fileNumber) {
    if (fileNumber >= freshFrom) {
      answeredFresh.increment();
    }
  }

  /**
   * From now on, reads answered by an L0 table numbered {@code fileNumber} or higher count as
   * answered by a fresh table ({@link #answeredFresh}): flush caching's evidence of whether reads
   * follow the writes made since it last decided.
   */
  public void countFreshFrom(long fileNumber) {
    freshFrom = fileNumber;
  }

  /** The first fresh table number ({@link #countFreshFrom}); {@code Long.MAX_VALUE} before it is set. */
  public long freshFrom() {
    return freshFrom;
  }

  /** Reads answered by fresh L0 tables since open ({@link #countFreshFrom}). */
  public long answeredFresh() {
    return answeredFresh.sum();
  }

  /** A read consulted {@code level} and read {@code blocks} data blocks from the device there. */
  void blockReads(int level, int blocks) {
    if (blocks > 0) {
      blockReads[level].add(blocks);
    }
  }

  /** Of {@link #blockReads}, the blocks of {@code level}'s buffer files. */
  void bufferBlockReads(int level, int blocks) {
    if (blocks > 0) {
      bufferBlockReads[level].add(blocks);
    }
  }

  /** A point read spent {@code nanos} reading its data blocks from the device (counted by level in {@link #blockReads}). */
  void blockReadTime(long nanos) {
    blockReadNanos.add(nanos);
  }

  /** The data blocks point reads have read from the device so far, all levels. */
  public long blockReadsTotal() {
    long sum = 0;
    for (LongAdder a : blockReads) {
      sum += a.sum();
    }
    return sum;
  }

  /** The time of those block reads so far, in nanoseconds. */
  public long blockReadNanos() {
    return blockReadNanos.sum();
  }

  /** The mean time of those block reads so far, in microseconds; NaN before any. */
  public double meanBlockReadMicros() {
    long blocks = blockReadsTotal();
    return blocks == 0 ? Double.NaN : blockReadNanos() / 1000.0 / blocks;
  }

  public long servedTotal() {
    long sum = 0;
    for (LongAdder a : served) {
      sum += a.sum();
    }
    return sum;
  }

  /** The counts of levels 0 to {@code levels - 1}. */
  public List<Stats.BufferLevelReads> byLevel(int levels) {
    List<Stats.BufferLevelReads> out = new ArrayList<>(levels);
    for (int level = 0; level < levels; level++) {
      out.add(new Stats.BufferLevelReads(served[level].sum(), stoppedAtMarker[level].sum(), fellThrough[level].sum()));
    }
    return List.copyOf(out);
  }

  /** Reads answered from {@code level}'s tables since open. */
  public long answeredAt(int level) {
    return answered[level].sum();
  }

  /** Reads answered from any level's tables since open (levels 0 to {@code levels - 1}). */
  public long answeredFromTables(int levels) {
    long sum = 0;
    for (int level = 0; level < levels; level++) {
      sum += answered[level].sum();
    }
    return sum;
  }

  /** The answered reads and block reads of levels 0 to {@code levels - 1}. */
  public List<Stats.LevelReads> levelReads(int levels) {
    List<Stats.LevelReads> out = new ArrayList<>(levels);
    for (int level = 0; level < levels; level++) {
      out.add(new Stats.LevelReads(answered[level].sum(), blockReads[level].sum(), bufferBlockReads[level].sum()));
    }
    return List.copyOf(out);
  }
}
