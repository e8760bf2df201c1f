package dev.cairn.config;

import dev.cairn.compaction.block.BlockCompactionConfig;
import dev.cairn.compaction.buffer.BufferConfig;
import dev.cairn.compaction.dlc.DlcConfig;
import dev.cairn.compaction.leveled.CompactionPriority;
import java.util.Objects;

/**
 * How compactions run: how the levels below L0 are laid out, what a merge does, and when plans
 * run (docs/compaction.md). The hierarchy is sealed so that only the combinations the engine
 * runs can be written:
 *
 * <pre>
 * Leveled(execution: Table(priority) | Block(priority, policy, io) | Buffer(config),
 *         scheduler: Immediate(idleDrainMillis) | Dlc(config))
 * TwoPhase(execution: PlainMerge | Buffer(config), idleDrainMillis)
 * </pre>
 *
 * <p>What cannot be written, and why: the buffer's rounds follow each level's round-robin sweep,
 * so {@link Buffer} takes no priority; a two-phase deletion part moves down in key order, so
 * {@link TwoPhase} takes no priority either; block compaction is built for leveled trees only;
 * DLC's bursts are plans of a leveled tree's L0, and it paces compactions to the clients' load
 * itself, so it schedules {@link Leveled} trees only and has no idle drain. Default: {@link
 * #defaults()}.
 */
public sealed interface CompactionSettings permits CompactionSettings.Leveled, CompactionSettings.TwoPhase {

  /** Longest idle drain delay accepted, a day. */
  long MAX_IDLE_DRAIN_MILLIS = 86_400_000L;

  /** What a merge does: rewrite whole tables, rewrite dirty blocks, or keep merged files in a buffer. */
  sealed interface Execution permits LeveledExecution, TwoPhaseExecution {}

  /** An execution a leveled tree runs. */
  sealed interface LeveledExecution extends Execution permits Table, Block, Buffer {}

  /** An execution a two-phase tree runs. */
  sealed interface TwoPhaseExecution extends Execution permits PlainMerge, Buffer {}

  /** When the plans of a leveled tree run. */
  sealed interface Scheduler permits Immediate, Dlc {}

  /**
   * LevelDB's layout: each level below L0 one sorted run, merged into the next as it outgrows its
   * size.
   */
  record Leveled(LeveledExecution execution, Scheduler scheduler) implements CompactionSettings {
    public Leveled {
      Objects.requireNonNull(execution, "compaction execution");
      Objects.requireNonNull(scheduler, "compaction scheduler");
    }

    @Override
    public long idleDrainMillis() {
      return scheduler instanceof Immediate immediate ? immediate.idleDrainMillis() : 0;
    }

    public Leveled withScheduler(Scheduler s) {
      return new Leveled(execution, s);
    }
  }

  /**
   * dLSM's two-phase compaction (docs/compaction.md, "Two-phase compaction"): the two upper levels
   * below L0 are each split into an insertion part, which the level above merges into, and a
   * deletion part, which moves down in key order and otherwise keeps its files (and their cached
   * blocks) until then; when it is empty the insertion part becomes it. Takes L1 to L4 (two engine
   * levels per split level); L5 and L6 stay leveled. Plans run as soon as they are due.
   *
   * @param idleDrainMillis see {@link Immediate#idleDrainMillis()}; 0: off
   */
  record TwoPhase(TwoPhaseExecution execution, long idleDrainMillis) implements CompactionSettings {
    public TwoPhase {
      Objects.requireNonNull(execution, "compaction execution");
      checkIdleDrain(idleDrainMillis);
    }
  }

  /**
   * Whole tables rewritten (LevelDB's compaction).
   *
   * @param priority which file of a due level below L0 a compaction starts from; {@link
   *     CompactionPriority#MIN_OVERLAP} by default (RocksDB's: the least data below rewritten per
   *     byte moved down; docs/decisions/0005)
   */
  record Table(CompactionPriority priority) implements LeveledExecution {
    public Table {
      Objects.requireNonNull(priority, "compaction priority");
    }

    public static Table defaults() {
      return new Table(CompactionPriority.MIN_OVERLAP);
    }
  }

  /**
   * BlockDB's block compaction: a target table whose few blocks receive incoming keys gets those
   * blocks merged and appended at its tail (docs/compaction.md, "Block compaction").
   *
   * @param priority as {@link Table#priority()}
   * @param policy which targets are block-merged
   * @param io how the engine executes the merges
   */
  record Block(CompactionPriority priority, BlockCompactionConfig policy, BlockCompactionExecution io)
      implements LeveledExecution {
    public Block {
      Objects.requireNonNull(priority, "compaction priority");
      Objects.requireNonNull(policy, "block compaction policy");
      Objects.requireNonNull(io, "block compaction execution");
    }

    public static Block defaults() {
      return new Block(CompactionPriority.MIN_OVERLAP, BlockCompactionConfig.defaults(),
          BlockCompactionExecution.defaults());
    }

    public Block withPolicy(BlockCompactionConfig v) {
      return new Block(priority, v, io);
    }

    public Block withIo(BlockCompactionExecution v) {
      return new Block(priority, policy, v);
    }
  }

  /**
   * The LSbM compaction buffer (docs/compaction.md, "Compaction buffer"): a merged file is kept,
   * without copying, in a buffer of the level below while its blocks stay cached, so that
   * compactions do not invalidate the block cache. Its rounds follow each level's round-robin
   * sweep ({@link CompactionPriority#ROUND_ROBIN}). Over {@link TwoPhase}, dLSM's: a level's
   * buffer moves with its insertion part at the round's end.
   */
  record Buffer(BufferConfig config) implements LeveledExecution, TwoPhaseExecution {
    public Buffer {
      Objects.requireNonNull(config, "buffer config");
    }

    public static Buffer defaults() {
      return new Buffer(BufferConfig.defaults());
    }
  }

  /** Whole tables rewritten, for a two-phase tree (its deletion parts move in key order: no priority). */
  record PlainMerge() implements TwoPhaseExecution {}

  /**
   * Plans run as soon as the picker finds one due (LevelDB, RocksDB).
   *
   * @param idleDrainMillis dLSM's aggressive compaction (section VI): once no write has arrived
   *     for this long, compact every level above the deepest one holding data down at full speed,
   *     whatever the sizes, until the first write returns, so that reads and scans consult fewer
   *     tables (and a compaction buffer drains); 0 (the default): off
   */
  record Immediate(long idleDrainMillis) implements Scheduler {
    public Immediate {
      checkIdleDrain(idleDrainMillis);
    }

    public static Immediate defaults() {
      return new Immediate(0);
    }
  }

  /**
   * Delayed L0 Compaction (docs/dlc.md): hold L0 compactions back while a load model sees the
   * clients keeping the device busy, resume them when it is quiet, run bursty compactions when L0
   * grows under sustained load, and rate-limit compaction I/O to what the clients leave. Its
   * bursty thresholds must sit below the stall triggers: {@code partTriggerFreshFiles <
   * fullTriggerL0Files < l0SlowdownTrigger} (checked when the options are built).
   */
  record Dlc(DlcConfig config) implements Scheduler {
    public Dlc {
      Objects.requireNonNull(config, "DLC config");
    }

    public static Dlc defaults() {
      return new Dlc(DlcConfig.defaults());
    }
  }

  /**
   * Leveled levels merged through the compaction buffer at its defaults ({@link Buffer#defaults()}:
   * a merge's cached inputs stay readable at their addresses in a buffer whose bound follows what
   * a miss costs, so nothing where a miss is a copy from the page cache), plans run at once
   * (docs/decisions/0020, lever 3).
   */
  static CompactionSettings defaults() {
    return leveled(Buffer.defaults());
  }

  /** A leveled tree running {@code execution} with plans run as soon as they are due. */
  static Leveled leveled(LeveledExecution execution) {
    return new Leveled(execution, Immediate.defaults());
  }

  /** A leveled tree running {@code execution} under DLC with {@code dlc}. */
  static Leveled leveled(LeveledExecution execution, DlcConfig dlc) {
    return new Leveled(execution, new Dlc(dlc));
  }

  /** A two-phase tree running {@code execution}, no idle drain. */
  static TwoPhase twoPhase(TwoPhaseExecution execution) {
    return new TwoPhase(execution, 0);
  }

  /** What a merge does. */
  Execution execution();

  /** The idle drain's delay ({@link Immediate#idleDrainMillis()}); 0 when off or under DLC. */
  long idleDrainMillis();

  private static void checkIdleDrain(long millis) {
    if (millis < 0 || millis > MAX_IDLE_DRAIN_MILLIS) {
      throw new IllegalArgumentException(
          "idleDrainMillis = " + millis + " is out of range [0, " + MAX_IDLE_DRAIN_MILLIS + "]");
    }
  }
}
