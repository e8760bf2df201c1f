package dev.cairn.compaction.dlsm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cairn.compaction.CompactionKind;
import dev.cairn.compaction.CompactionPlan;
import dev.cairn.compaction.LevelScore;
import dev.cairn.compaction.RunningCompactions;
import dev.cairn.compaction.leveled.LeveledConfig;
import dev.cairn.compaction.leveled.LeveledPlanBuilder;
import dev.cairn.compaction.testing.PlanApplier;
import dev.cairn.compaction.testing.RandomShapes;
import dev.cairn.model.FileDescriptor;
import dev.cairn.model.LsmShape;
import dev.cairn.testkit.LongTests;
import dev.cairn.testkit.Seeds;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/**
 * Random shapes in, two-phase plans checked against the rules restated by brute force. A failure
 * prints its seed; replay with {@code -Dcairn.seed=<seed>}; {@code -Dcairn.long=true} runs ten
 * times as many shapes.
 */
class TwoPhasePickerPropertyTest {
  private static final int SHAPES = LongTests.enabled() ? 5000 : 500;

  @Test
  void everyPlanFollowsTheTwoPhaseRules() {
    Seeds.forEach(SHAPES, seed -> {
      Random random = new Random(seed);
      RandomShapes gen = new RandomShapes(random);
      TwoPhaseLayout layout = layout(gen, random);
      TwoPhaseCompactionPicker picker = new TwoPhaseCompactionPicker(layout);
      LsmShape shape = gen.shape(layout.leveled());
      Set<Long> busy = random.nextBoolean() ? Set.of() : gen.busy(shape, random.nextDouble() * 0.5);
      Optional<CompactionPlan> plan = picker.pick(shape, busy);
      if (plan.isPresent()) {
        checkPlan(layout, shape, plan.get());
        assertTrue(RunningCompactions.fromBusyFiles(shape, busy).allows(plan.get()), "clear of the running compactions");
        if (busy.isEmpty()) {
          assertEquals(mostUrgentUnit(layout, picker.scores(shape)), unitOf(layout, plan.get().inputLevel()),
              "with nothing busy the most urgent level or pair goes first");
          if (layout.isDeletion(plan.get().inputLevel())) {
            assertEquals(shape.files(plan.get().inputLevel()).get(0), plan.get().inputs().get(0),
                "a deletion part moves down from its first key");
          }
        }
      } else if (busy.isEmpty()) {
        for (LevelScore score : picker.scores(shape)) {
          assertFalse(score.isDue(), "nothing picked although " + score + " is due");
        }
      }
    });
  }

  @Test
  void pickAndApplyConvergesAndOnlyLevelMovesFillDeletionParts() {
    Seeds.forEach(SHAPES, seed -> {
      Random random = new Random(seed);
      RandomShapes gen = new RandomShapes(random);
      TwoPhaseLayout layout = layout(gen, random);
      TwoPhaseCompactionPicker picker = new TwoPhaseCompactionPicker(layout);
      LsmShape shape = applyUntilNone(layout, gen.shape(layout.leveled()), gen,
          s -> picker.pick(s, RunningCompactions.none()));
      for (LevelScore score : picker.scores(shape)) {
        assertFalse(score.isDue(), "converged with " + score + " still due");
      }
    });
  }

  @Test
  void drainingMovesAllDataIntoOneLevelByTwoPhaseMoves() {
    Seeds.forEach(SHAPES, seed -> {
      Random random = new Random(seed);
      RandomShapes gen = new RandomShapes(random);
      TwoPhaseLayout layout = layout(gen, random);
      TwoPhaseCompactionPicker picker = new TwoPhaseCompactionPicker(layout);
      LsmShape shape = applyUntilNone(layout, gen.shape(layout.leveled()), gen,
          s -> picker.pickDraining(s, RunningCompactions.none()));
      int deepest = shape.deepestLevelWithFiles();
      for (int level = 0; level < deepest; level++) {
        assertTrue(shape.files(level).isEmpty(), "drained, yet L" + level + " holds files above L" + deepest);
      }
    });
  }

  @Test
  void parallelPlansAreCompatibleAndApplyInAnyOrder() {
    Seeds.forEach(SHAPES, seed -> {
      Random random = new Random(seed);
      RandomShapes gen = new RandomShapes(random);
      TwoPhaseLayout layout = layout(gen, random);
      TwoPhaseCompactionPicker picker = new TwoPhaseCompactionPicker(layout);
      LsmShape shape = gen.shape(layout.leveled());
      List<CompactionPlan> plans = new ArrayList<>();
      RunningCompactions running = RunningCompactions.none();
      for (Optional<CompactionPlan> p = picker.pick(shape, running); p.isPresent(); p = picker.pick(shape, running)) {
        checkPlan(layout, shape, p.get());
        for (CompactionPlan other : plans) {
          assertTrue(RunningCompactions.of(List.of(other)).allows(p.get()), p.get() + " conflicts with " + other);
        }
        plans.add(p.get());
        running = running.plus(p.get());
        assertTrue(plans.size() < 1000, "the picker keeps handing out plans");
      }
      Collections.shuffle(plans, random);
      LsmShape applied = shape;
      for (CompactionPlan plan : plans) {
        applied = PlanApplier.apply(applied, plan, gen::freshId);
      }
    });
  }

  /** Applies {@code next}'s plans one by one, each checked, until it has none; returns the shape then. */
  private static LsmShape applyUntilNone(TwoPhaseLayout layout, LsmShape shape, RandomShapes gen,
      Function<LsmShape, Optional<CompactionPlan>> next) {
    int steps = 0;
    for (Optional<CompactionPlan> p = next.apply(shape); p.isPresent(); p = next.apply(shape)) {
      checkPlan(layout, shape, p.get());
      shape = PlanApplier.apply(shape, p.get(), gen::freshId); // re-checks every level invariant
      assertTrue(++steps < 20_000, "no convergence after " + steps + " plans");
    }
    return shape;
  }

  /** The rules every plan of the two-phase picker obeys, whatever runs beside it. */
  private static void checkPlan(TwoPhaseLayout layout, LsmShape shape, CompactionPlan plan) {
    int in = plan.inputLevel();
    int out = plan.outputLevel();
    assertEquals(in + 1, out, "every plan goes one level down");
    assertTrue(out < shape.numLevels(), "nothing leaves the last level");
    assertEquals(plan.kind() == CompactionKind.LEVEL_MOVE, layout.isInsertion(in),
        "an insertion part leaves only whole, by a level move: " + plan);
    assertEquals(plan.kind() == CompactionKind.LEVEL_MOVE, layout.isDeletion(out),
        "a deletion part is filled only by a level move: " + plan);
    if (plan.kind() == CompactionKind.LEVEL_MOVE) {
      assertTrue(shape.files(out).isEmpty(), "a round ends only when the deletion part is empty");
      assertEquals(shape.files(in), plan.inputs(), "the whole insertion part moves");
      return;
    }
    List<FileDescriptor> expectedTargets = shape.overlapping(out, plan.inputRange().smallest(),
        plan.inputRange().largest());
    assertEquals(expectedTargets, plan.targets(), "targets are every output file overlapping the inputs");
    if (in == 0) {
      Set<Long> closed = new HashSet<>();
      LeveledPlanBuilder.closedL0Overlap(shape, plan.inputRange().smallest(), plan.inputRange().largest())
          .forEach(f -> closed.add(f.id()));
      Set<Long> inputs = new HashSet<>();
      plan.inputs().forEach(f -> inputs.add(f.id()));
      assertEquals(closed, inputs, "L0 inputs are closed over overlap");
    }
    assertEquals(!shape.hasDataBelow(out, plan.keyRange()), plan.bottommost(), "bottommost");
  }

  /** The level that stands for {@code level}'s unit of scoring: a pair is planned from its insertion level. */
  private static int unitOf(TwoPhaseLayout layout, int level) {
    int pair = layout.pairOf(level);
    return pair == 0 ? level : layout.insertionLevel(pair);
  }

  private static int mostUrgentUnit(TwoPhaseLayout layout, List<LevelScore> scores) {
    List<LevelScore> due = new ArrayList<>();
    for (LevelScore s : scores) {
      if (s.isDue() && !layout.isDeletion(s.level())) {
        due.add(s);
      }
    }
    due.sort(LevelScore.MOST_URGENT_FIRST);
    return due.get(0).level();
  }

  /** A random leveled config deep enough for a pair (4 levels or more), and a random number of pairs. */
  private static TwoPhaseLayout layout(RandomShapes gen, Random random) {
    LeveledConfig config = gen.config();
    while (TwoPhaseLayout.maxPairs(config.numLevels()) < 1) {
      config = gen.config();
    }
    return new TwoPhaseLayout(config, 1 + random.nextInt(TwoPhaseLayout.maxPairs(config.numLevels())));
  }
}
