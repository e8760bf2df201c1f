package dev.cairn.db;

import dev.cairn.Options;
import dev.cairn.Stats;
import dev.cairn.compaction.adapt.FlushCachingPolicy;
import dev.cairn.compaction.adapt.ReadWeightedShare;
import dev.cairn.db.read.PointReads;
import dev.cairn.version.FileMetaData;
import dev.cairn.version.Version;
import java.util.function.LongSupplier;

/**
 * Whether the next flush caches the blocks it writes: {@link Options#flushCaching()} when it is
 * pinned, else {@link FlushCachingPolicy}'s choice over the window since it last decided: the
 * reads the window's fresh tables answered (those flushed since it began, numbered from the
 * file number it began at; after writes alone, from the first read on) against the fresh tables'
 * share of the table bytes as those reads saw it. Asked once a flush, before it writes, so a
 * choice holds for whole tables and changes only between flushes.
 *
 * <p>Locking: guarded by the engine mutex (the flush loop asks with it held, and installs report
 * their versions with it held).
 */
final class FlushCachingChoice {
  private static final System.Logger LOG = System.getLogger(FlushCachingChoice.class.getName());

  private final Options.FlushCaching mode;
  private final FlushCachingPolicy policy;
  private final PointReads reads;
  /** The next file number: the window's fresh tables are numbered from where it stood at the start. */
  private final LongSupplier nextFileNumber;
  private FlushCachingPolicy.State state;
  /** Where the counts stood when the window began. */
  private long freshAnsweredBefore;
  private long tableAnsweredBefore;
  /** Null until the first window begins. */
  private ReadWeightedShare freshShare;
  /**
   * No read answered from tables since open or since a window that saw none; set when the first
   * window begins (nothing reads it before).
   */
  private boolean writesAlone;

  FlushCachingChoice(Options.FlushCaching mode, FlushCachingPolicy policy, PointReads reads,
      LongSupplier nextFileNumber) {
    this.mode = mode;
    this.policy = policy;
    this.reads = reads;
    this.nextFileNumber = nextFileNumber;
    // ADAPTIVE starts caching: with no reads seen yet, the newest data is the likeliest to be
    // read, and if it is not, one window's flushes took cache room before the first evidence.
    this.state = FlushCachingPolicy.State.initial(mode != Options.FlushCaching.NEVER);
  }

  /**
   * Requires: mutex held. {@code current} is the tree from now on: each read is set against the
   * share the fresh tables held when it was answered ({@link ReadWeightedShare}), so every
   * installed version is reported.
   */
  void versionInstalled(Version current) {
    if (freshShare == null) {
      return;
    }
    long tables = reads.answeredFromTables(current.numLevels());
    if (writesAlone && tables == tableAnsweredBefore) {
      // Still no read since a window that saw none: what is flushed now is the end of writes
      // alone (a bulk load's last table), no news to the reads to come, so the fresh tables
      // start after it.
      beginWindow(current, tables);
      return;
    }
    writesAlone = false;
    freshShare.changed(tables, freshShare(current));
  }

  /** Requires: mutex held. Whether the flush about to run over {@code current} caches its blocks. */
  boolean forNextFlush(Version current) {
    if (mode != Options.FlushCaching.ADAPTIVE) {
      return mode == Options.FlushCaching.ALWAYS;
    }
    long tables = reads.answeredFromTables(current.numLevels());
    if (freshShare == null) {
      writesAlone = tables == 0; // reads since open (before this first flush) are not writes alone
      beginWindow(current, tables);
      return state.caching();
    }
    long fresh = reads.answeredFresh();
    // The counters are read while readers run, and a read counts as fresh just before it counts
    // as answered from a table: one in flight between the two sums is fresh but not yet answered.
    long tableAnswered = tables - tableAnsweredBefore;
    long freshAnswered = Math.max(0, Math.min(fresh - freshAnsweredBefore, tableAnswered));
    FlushCachingPolicy.Window window = new FlushCachingPolicy.Window(freshAnswered, tableAnswered,
        Math.min(1, freshShare.mean(tables))); // a mean of shares, at most 1 but for rounding
    switch (policy.judge(window)) {
      case WAIT -> {
        return state.caching(); // the reads so far count toward the next flush's window
      }
      case DROP -> {
        writesAlone = window.tableAnswered() == 0;
        beginWindow(current, tables);
        return state.caching();
      }
      case COUNTS -> { }
    }
    beginWindow(current, tables);
    FlushCachingPolicy.State next = policy.next(state, window);
    if (next.caching() != state.caching()) {
      LOG.log(System.Logger.Level.INFO, String.format("flushes %s caching their blocks: the tables flushed since the last decision answered"
          + " %d of %d reads from tables while they held %.3f of the table bytes on average (recency %.2f;"
          + " on above %.2f, off below %.2f)", next.caching() ? "start" : "stop", window.freshAnswered(),
          window.tableAnswered(), window.freshShare(), next.recency(), policy.onAbove(), policy.offBelow()));
    }
    state = next;
    return state.caching();
  }

  /** A new window from now: the tables flushed from here on are fresh, and none is yet. */
  private void beginWindow(Version current, long tables) {
    reads.countFreshFrom(nextFileNumber.getAsLong());
    freshAnsweredBefore = reads.answeredFresh();
    tableAnsweredBefore = tables;
    if (freshShare == null) {
      freshShare = new ReadWeightedShare(tables, freshShare(current));
    } else {
      freshShare.restart(tables, freshShare(current));
    }
  }

  /** The share of {@code version}'s table bytes in fresh L0 tables; 0 when it holds none. */
  private double freshShare(Version version) {
    long freshFrom = reads.freshFrom();
    long fresh = 0;
    for (FileMetaData f : version.files(0)) {
      if (f.number() >= freshFrom) {
        fresh += f.totalBytes();
      }
    }
    long all = 0;
    for (int level = 0; level < version.numLevels(); level++) {
      all += version.levelBytes(level);
    }
    return all == 0 ? 0 : Math.min(1, (double) fresh / all);
  }

  /** Requires: mutex held. */
  Stats.FlushCaching stats() {
    return new Stats.FlushCaching(mode, state.caching(), state.recency(), state.switches());
  }
}
