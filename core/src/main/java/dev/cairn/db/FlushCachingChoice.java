package dev.cairn.db;

import dev.cairn.Options;
import dev.cairn.Stats;
import dev.cairn.compaction.adapt.FlushCachingPolicy;
import dev.cairn.compaction.adapt.ReadWeightedShare;
import dev.cairn.db.read.PointReads;
import dev.cairn.version.Version;
import java.util.logging.Logger;

/**
 * Whether the next flush caches the blocks it writes: {@link Options#flushCaching()} when it
 * is pinned, else {@link FlushCachingPolicy}'s choice over the reads answered since the last
 * flush that decided, set against L0's share of the table bytes as those reads saw it. Asked
 * once a flush, before it writes, so a choice holds for whole tables and changes only between
 * flushes.
 *
 * <p>Locking: guarded by the engine mutex (the flush loop asks with it held).
 */
final class FlushCachingChoice {
  private static final Logger LOG = Logger.getLogger(FlushCachingChoice.class.getName());

  private final Options.FlushCaching mode;
  private final FlushCachingPolicy policy;
  private final PointReads reads;
  private FlushCachingPolicy.State state;
  private long l0AnsweredBefore;
  private long tableAnsweredBefore;
  /** Null until the first version is seen. */
  private ReadWeightedShare l0Share;

  FlushCachingChoice(Options.FlushCaching mode, FlushCachingPolicy policy, PointReads reads) {
    this.mode = mode;
    this.policy = policy;
    this.reads = reads;
    // ADAPTIVE starts caching: with no reads seen yet, the newest data is the likeliest to be
    // read, and if it is not, one window's flushes took cache room before the first evidence.
    this.state = FlushCachingPolicy.State.initial(mode != Options.FlushCaching.NEVER);
  }

  /**
   * Requires: mutex held. {@code current} is the tree from now on: each read is set against the
   * share L0 held when it was answered ({@link ReadWeightedShare}), so every installed version is
   * reported.
   */
  void versionInstalled(Version current) {
    if (mode != Options.FlushCaching.ADAPTIVE) {
      return;
    }
    long answered = reads.answeredFromTables(current.numLevels());
    double share = l0Share(current);
    if (l0Share == null) {
      l0Share = new ReadWeightedShare(answered, share);
    } else {
      l0Share.changed(answered, share);
    }
  }

  /** Requires: mutex held. Whether the flush about to run over {@code current} caches its blocks. */
  boolean forNextFlush(Version current) {
    if (mode != Options.FlushCaching.ADAPTIVE) {
      return mode == Options.FlushCaching.ALWAYS;
    }
    versionInstalled(current); // the first call, or a version not reported: from now on it holds
    long l0 = reads.answeredAt(0);
    long tables = reads.answeredFromTables(current.numLevels());
    FlushCachingPolicy.Window window = new FlushCachingPolicy.Window(l0 - l0AnsweredBefore,
        tables - tableAnsweredBefore, l0Share.mean(tables));
    if (!policy.counts(window)) {
      return state.caching(); // the reads so far count toward the next flush's window
    }
    l0AnsweredBefore = l0;
    tableAnsweredBefore = tables;
    l0Share.restart(tables);
    FlushCachingPolicy.State next = policy.next(state, window);
    if (next.caching() != state.caching()) {
      LOG.info(String.format("flushes %s caching their blocks: L0 answered %d of %d reads from tables while it held"
          + " %.3f of the table bytes on average (recency %.2f; on above %.2f, off below %.2f)",
          next.caching() ? "start" : "stop", window.l0Answered(), window.tableAnswered(), window.l0Share(),
          next.recency(), policy.onAbove(), policy.offBelow()));
    }
    state = next;
    return state.caching();
  }

  /** L0's share of {@code version}'s table bytes; 0 when it holds none. */
  private static double l0Share(Version version) {
    long sum = 0;
    for (int level = 0; level < version.numLevels(); level++) {
      sum += version.levelBytes(level);
    }
    return sum == 0 ? 0 : (double) version.levelBytes(0) / sum;
  }

  /** Requires: mutex held. */
  Stats.FlushCaching stats() {
    return new Stats.FlushCaching(mode, state.caching(), state.recency(), state.switches());
  }
}
