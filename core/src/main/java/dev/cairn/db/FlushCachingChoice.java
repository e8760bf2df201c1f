package dev.cairn.db;

import dev.cairn.Options;
import dev.cairn.Stats;
import dev.cairn.compaction.adapt.FlushCachingPolicy;
import dev.cairn.db.read.PointReads;
import dev.cairn.version.Version;
import java.util.logging.Logger;

/**
 * Whether the next flush caches the blocks it writes: {@link Options#flushCaching()} when it
 * is pinned, else {@link FlushCachingPolicy}'s choice over the reads answered since the last
 * flush. Asked once a flush, before it writes, so a choice holds for whole tables and changes only
 * between flushes.
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

  FlushCachingChoice(Options.FlushCaching mode, FlushCachingPolicy policy, PointReads reads) {
    this.mode = mode;
    this.policy = policy;
    this.reads = reads;
    // ADAPTIVE starts caching: with no reads seen yet, the newest data is the likeliest to be
    // read, and if it is not, one window's flushes took cache room before the first evidence.
    this.state = FlushCachingPolicy.State.initial(mode != Options.FlushCaching.NEVER);
  }

  /** Requires: mutex held. Whether the flush about to run over {@code current} caches its blocks. */
  boolean forNextFlush(Version current) {
    if (mode != Options.FlushCaching.ADAPTIVE) {
      return mode == Options.FlushCaching.ALWAYS;
    }
    long l0 = reads.answeredAt(0);
    long tables = reads.answeredFromTables(current.numLevels());
    long tableBytes = 0;
    for (int level = 0; level < current.numLevels(); level++) {
      tableBytes += current.levelBytes(level);
    }
    FlushCachingPolicy.Window window = new FlushCachingPolicy.Window(l0 - l0AnsweredBefore,
        tables - tableAnsweredBefore, current.levelBytes(0), tableBytes);
    if (!policy.counts(window)) {
      return state.caching(); // the reads so far count toward the next flush's window
    }
    l0AnsweredBefore = l0;
    tableAnsweredBefore = tables;
    FlushCachingPolicy.State next = policy.next(state, window);
    if (next.caching() != state.caching()) {
      LOG.info(String.format("flushes %s caching their blocks: L0 answered %d of %d reads from tables while it held"
          + " %d of %d table bytes (recency %.2f; on above %.2f, off below %.2f)",
          next.caching() ? "start" : "stop", window.l0Answered(), window.tableAnswered(), window.l0Bytes(),
          window.tableBytes(), next.recency(), policy.onAbove(), policy.offBelow()));
    }
    state = next;
    return state.caching();
  }

  /** Requires: mutex held. */
  Stats.FlushCaching stats() {
    return new Stats.FlushCaching(mode, state.caching(), state.recency(), state.switches());
  }
}
