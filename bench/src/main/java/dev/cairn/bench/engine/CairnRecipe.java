package dev.cairn.bench.engine;

import dev.cairn.Options;
import dev.cairn.compaction.block.BlockCompactionConfig;
import dev.cairn.compaction.buffer.BufferConfig;
import dev.cairn.compaction.dlc.DlcConfig;
import dev.cairn.compaction.leveled.CompactionPriority;
import dev.cairn.config.BlockCompactionExecution;
import dev.cairn.config.CompactionSettings;
import java.util.Objects;
import java.util.function.UnaryOperator;

/**
 * What one of the runner's Cairn engines sets beyond the shape all engines share: its compaction
 * (what a merge does, the level layout, the scheduler, their tuning) and any other option it
 * varies. {@link Engines} names each recipe; {@link CairnTableEngine} turns it into {@link
 * Options}.
 *
 * @param style what a merge does
 * @param twoPhase dLSM's two-phase levels in place of leveled ones (TABLE or BUFFER, not DLC)
 * @param dlc Delayed L0 Compaction schedules the plans ({@link CairnTableEngine#dlcConfig})
 * @param priority the compaction priority of TABLE and BLOCK; null: the engine's (min-overlap)
 * @param buffer BUFFER's settings, from {@link BufferConfig#defaults()}
 * @param block BLOCK's settings (policy and execution), from the defaults with the runner's lazy
 *     deletion ({@link CairnTableEngine#LAZY_DELETION_BYTES}) and the recipe's priority
 * @param idleDrainMillis dLSM's aggressive compaction once writes stop this long; 0: off
 * @param options the options besides compaction a variant sets, applied last
 */
public record CairnRecipe(Style style, boolean twoPhase, boolean dlc, CompactionPriority priority,
    UnaryOperator<BufferConfig> buffer, UnaryOperator<CompactionSettings.Block> block, long idleDrainMillis,
    UnaryOperator<Options.Builder> options) {

  /** What a merge does: whole tables, dirty blocks (BlockDB), or the compaction buffer (LSbM). */
  public enum Style { TABLE, BLOCK, BUFFER }

  public CairnRecipe {
    Objects.requireNonNull(style, "style");
    Objects.requireNonNull(buffer, "buffer");
    Objects.requireNonNull(block, "block");
    Objects.requireNonNull(options, "options");
  }

  /** {@code style} over leveled levels, scheduled at once, at the defaults. */
  public static CairnRecipe of(Style style) {
    return new CairnRecipe(style, false, false, null, UnaryOperator.identity(), UnaryOperator.identity(), 0,
        UnaryOperator.identity());
  }

  public CairnRecipe twoPhase(boolean v) {
    return new CairnRecipe(style, v, dlc, priority, buffer, block, idleDrainMillis, options);
  }

  public CairnRecipe dlc(boolean v) {
    return new CairnRecipe(style, twoPhase, v, priority, buffer, block, idleDrainMillis, options);
  }

  public CairnRecipe priority(CompactionPriority v) {
    return new CairnRecipe(style, twoPhase, dlc, v, buffer, block, idleDrainMillis, options);
  }

  /** Changes the buffer's settings after this recipe's own changes. */
  public CairnRecipe buffer(UnaryOperator<BufferConfig> then) {
    UnaryOperator<BufferConfig> before = buffer;
    return new CairnRecipe(style, twoPhase, dlc, priority, c -> then.apply(before.apply(c)), block,
        idleDrainMillis, options);
  }

  public CairnRecipe block(UnaryOperator<CompactionSettings.Block> v) {
    return new CairnRecipe(style, twoPhase, dlc, priority, buffer, v, idleDrainMillis, options);
  }

  public CairnRecipe idleDrainMillis(long v) {
    return new CairnRecipe(style, twoPhase, dlc, priority, buffer, block, v, options);
  }

  /** Sets more options after this recipe's own. */
  public CairnRecipe options(UnaryOperator<Options.Builder> then) {
    UnaryOperator<Options.Builder> before = options;
    return new CairnRecipe(style, twoPhase, dlc, priority, buffer, block, idleDrainMillis,
        b -> then.apply(before.apply(b)));
  }

  /** The engine's compaction settings, with DLC's {@code dlcConfig} when the recipe has DLC. */
  CompactionSettings settings(DlcConfig dlcConfig) {
    if (twoPhase) {
      if (style == Style.BLOCK || dlc) {
        throw new IllegalArgumentException("two-phase levels run TABLE or BUFFER without DLC, not " + this);
      }
      CompactionSettings.TwoPhaseExecution execution = style == Style.BUFFER
          ? new CompactionSettings.Buffer(buffer.apply(BufferConfig.defaults()))
          : new CompactionSettings.PlainMerge();
      return new CompactionSettings.TwoPhase(execution, idleDrainMillis);
    }
    CompactionPriority p = priority != null ? priority : CompactionPriority.MIN_OVERLAP;
    CompactionSettings.LeveledExecution execution = switch (style) {
      case TABLE -> new CompactionSettings.Table(p);
      case BLOCK -> block.apply(new CompactionSettings.Block(p, BlockCompactionConfig.defaults(),
          BlockCompactionExecution.defaults().withLazyDeletionBytes(CairnTableEngine.LAZY_DELETION_BYTES)));
      case BUFFER -> new CompactionSettings.Buffer(buffer.apply(BufferConfig.defaults()));
    };
    if (dlc && idleDrainMillis > 0) {
      throw new IllegalArgumentException("DLC paces compactions itself: no idle drain beside it, not " + this);
    }
    CompactionSettings.Scheduler scheduler = dlc
        ? new CompactionSettings.Dlc(dlcConfig)
        : new CompactionSettings.Immediate(idleDrainMillis);
    return new CompactionSettings.Leveled(execution, scheduler);
  }
}
