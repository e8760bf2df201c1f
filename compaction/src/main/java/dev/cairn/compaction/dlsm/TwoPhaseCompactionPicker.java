package dev.cairn.compaction.dlsm;

import dev.cairn.compaction.ByteSizes;
import dev.cairn.compaction.CompactionKind;
import dev.cairn.compaction.CompactionPicker;
import dev.cairn.compaction.CompactionPlan;
import dev.cairn.compaction.LevelScore;
import dev.cairn.compaction.RunningCompactions;
import dev.cairn.compaction.leveled.LeveledCompactionPicker;
import dev.cairn.compaction.leveled.LeveledPlanBuilder;
import dev.cairn.compaction.leveled.RoundRobin;
import dev.cairn.model.FileDescriptor;
import dev.cairn.model.KeyRange;
import dev.cairn.model.LsmShape;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;

/**
 * dLSM's two-phase compaction (section IV-A) over the engine's levels as {@link TwoPhaseLayout}
 * lays them out. Stateless and pure, like the leveled picker.
 *
 * <p>The rules, in order of urgency (highest score first, ties to the shallower level):
 *
 * <ol>
 *   <li><b>L0</b> scores its file count over the trigger and merges into pair 1's insertion
 *       level, exactly as the leveled picker merges it into L1 (round-robin seed, closed over
 *       overlap). Its targets are insertion-part files only: the deletion part below keeps its
 *       files, and their addresses, until they move down.
 *   <li><b>A pair</b> scores the bytes of both its parts over its size. When due, it moves data
 *       out of its deletion part, in key order: the deletion part's first file (the next, if
 *       that one is busy) merges into the level below (the next pair's insertion level, or the
 *       first leveled level), or moves there when nothing overlaps it. When the deletion part is
 *       empty, the round ends: one {@link CompactionKind#LEVEL_MOVE} re-parents every file of the
 *       insertion part to the deletion level, in one edit, writing nothing. A pair below its size
 *       waits, however its bytes are split, so its deletion part drains only as fast as its
 *       insertion part fills: the two sizes add up to about the pair's size, as in the paper.
 *   <li><b>Leveled levels</b> below the pairs compact as LevelDB's do (round-robin).
 * </ol>
 *
 * <p>Every plan merges or moves a level into the next one, so the leveled invariants and {@link
 * RunningCompactions}' claims apply unchanged. Outputs into an insertion level are cut at the
 * files two levels down, where their data merges next ({@link TwoPhaseLayout#grandparentLevel}).
 * Manual compactions step through the levels as the leveled picker's do: correct in any layout,
 * though they merge insertion parts into deletion parts.
 */
public final class TwoPhaseCompactionPicker implements CompactionPicker {

  private final TwoPhaseLayout layout;
  private final LeveledPlanBuilder builder;
  private final LeveledCompactionPicker manual;

  public TwoPhaseCompactionPicker(TwoPhaseLayout layout) {
    this.layout = Objects.requireNonNull(layout, "layout");
    this.builder = new LeveledPlanBuilder(layout.leveled());
    this.manual = new LeveledCompactionPicker(layout.leveled());
  }

  public TwoPhaseLayout layout() {
    return layout;
  }

  /**
   * One score per level {@code 0..numLevels-2}. Both levels of a pair carry the pair's score
   * (the bytes of both parts over the pair's size): the pair is due as a whole.
   */
  @Override
  public List<LevelScore> scores(LsmShape shape) {
    checkLevels(shape);
    List<LevelScore> scores = new ArrayList<>(shape.numLevels() - 1);
    int l0Files = shape.level(0).fileCount();
    int trigger = layout.leveled().l0CompactionTrigger();
    scores.add(new LevelScore(0, (double) l0Files / trigger, l0Files, trigger));
    for (int level = 1; level < shape.numLevels() - 1; level++) {
      int pair = layout.pairOf(level);
      long bytes;
      long limit;
      if (pair != 0) {
        bytes = shape.totalBytes(layout.insertionLevel(pair)) + shape.totalBytes(layout.deletionLevel(pair));
        limit = layout.maxBytesForPair(pair);
      } else {
        bytes = shape.totalBytes(level);
        limit = layout.maxBytesForLeveledLevel(level);
      }
      scores.add(new LevelScore(level, (double) bytes / limit, bytes, limit));
    }
    return scores;
  }

  @Override
  public Optional<CompactionPlan> pick(LsmShape shape, RunningCompactions running) {
    return pick(shape, running, false);
  }

  /**
   * Every level or pair with a file above the deepest level holding any is due; a pair drains its
   * deletion part and ends its round as it would under size pressure, so the data reaches the
   * deepest level by the same moves, the deletion part's files keeping their addresses until they
   * go.
   */
  @Override
  public Optional<CompactionPlan> pickDraining(LsmShape shape, RunningCompactions running) {
    return pick(shape, running, true);
  }

  private Optional<CompactionPlan> pick(LsmShape shape, RunningCompactions running, boolean draining) {
    Objects.requireNonNull(running, "running");
    int deepest = shape.deepestLevelWithFiles();
    List<LevelScore> due = new ArrayList<>();
    for (LevelScore score : scores(shape)) {
      // A pair is scored at both its levels; it is planned once, from its insertion level.
      if (layout.isDeletion(score.level())) {
        continue;
      }
      if (score.isDue() || (draining && holdsFileAbove(shape, score.level(), deepest))) {
        due.add(score);
      }
    }
    due.sort(LevelScore.MOST_URGENT_FIRST);
    for (LevelScore score : due) {
      int level = score.level();
      int pair = layout.pairOf(level);
      Optional<CompactionPlan> plan = pair != 0
          ? planPair(shape, pair, running, score)
          : planLeveled(shape, level, running, score);
      if (plan.isPresent()) {
        return score.isDue() ? plan : plan.map(p -> p.withReason("writes stopped, draining: " + p.reason()));
      }
    }
    return Optional.empty();
  }

  /** Whether the unit scored at {@code level} (a pair: both its levels) holds a file above {@code deepest}. */
  private boolean holdsFileAbove(LsmShape shape, int level, int deepest) {
    int pair = layout.pairOf(level);
    int last = pair != 0 ? layout.deletionLevel(pair) : level;
    for (int l = level; l <= last; l++) {
      if (l < deepest && !shape.files(l).isEmpty()) {
        return true;
      }
    }
    return false;
  }

  /** L0 and the leveled levels: round-robin from the compaction pointer, as LevelDB. */
  private Optional<CompactionPlan> planLeveled(LsmShape shape, int level, RunningCompactions running,
      LevelScore score) {
    if (level == 0 && running.anyBusy(shape.files(0))) {
      return Optional.empty(); // two L0 compactions at once could put a newer version below an older one
    }
    String reason = score.describe();
    int output = level + 1;
    for (FileDescriptor seed : RoundRobin.seeds(shape.files(level), shape.compactionPointer(level))) {
      if (running.isBusy(seed.id())) {
        continue;
      }
      Optional<CompactionPlan> plan =
          builder.build(shape, level, List.of(seed), running, true, reason, layout.grandparentLevel(output));
      if (plan.isPresent()) {
        return plan;
      }
    }
    return Optional.empty();
  }

  /** A due pair: the next file of its deletion part moves down, or, once that is empty, the round ends. */
  private Optional<CompactionPlan> planPair(LsmShape shape, int pair, RunningCompactions running,
      LevelScore score) {
    int insertion = layout.insertionLevel(pair);
    int deletion = layout.deletionLevel(pair);
    String sizes = String.format(Locale.ROOT, "pair %d score %.2f: %s of %s", pair, score.score(),
        ByteSizes.format(score.current()), ByteSizes.format(score.limit()));
    List<FileDescriptor> deleting = shape.files(deletion);
    if (deleting.isEmpty()) {
      return endRound(shape, insertion, running, sizes);
    }
    String reason = sizes + ", deletion part L" + deletion + " moves down in key order";
    for (FileDescriptor seed : deleting) { // a sorted run: already in key order
      if (running.isBusy(seed.id())) {
        continue;
      }
      Optional<CompactionPlan> plan = builder.build(shape, deletion, List.of(seed), running, true, reason,
          layout.grandparentLevel(deletion + 1));
      if (plan.isPresent()) {
        return plan; // the pointer it sets is not read here: a deletion part drains from its first key
      }
    }
    return Optional.empty();
  }

  /** The insertion part, whole, becomes the (empty) deletion part: one edit, nothing written. */
  private Optional<CompactionPlan> endRound(LsmShape shape, int insertion, RunningCompactions running,
      String sizes) {
    List<FileDescriptor> files = shape.files(insertion);
    if (files.isEmpty() || !running.allows(insertion, files, List.of())) {
      return Optional.empty();
    }
    KeyRange range = KeyRange.spanning(files);
    return Optional.of(new CompactionPlan(CompactionKind.LEVEL_MOVE, insertion, insertion + 1, files, List.of(),
        List.of(), null, !shape.hasDataBelow(insertion + 1, range), layout.leveled().outputLimits(),
        sizes + ", deletion part empty: the insertion part L" + insertion + " becomes it"));
  }

  /** Manual steps as the leveled picker takes them ({@link LeveledCompactionPicker#planManual}). */
  @Override
  public Optional<CompactionPlan> planManual(LsmShape shape, int level, byte[] fromUserKey, byte[] toUserKey,
      RunningCompactions running) {
    checkLevels(shape);
    return manual.planManual(shape, level, fromUserKey, toUserKey, running);
  }

  private void checkLevels(LsmShape shape) {
    if (shape.numLevels() != layout.numLevels()) {
      throw new IllegalArgumentException("shape has " + shape.numLevels() + " levels, layout " + layout.numLevels());
    }
  }
}
