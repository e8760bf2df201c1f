package dev.cairn.compaction.leveled;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cairn.compaction.CompactionKind;
import dev.cairn.compaction.CompactionPlan;
import dev.cairn.compaction.LevelScore;
import dev.cairn.compaction.RunningCompactions;
import dev.cairn.compaction.testing.PlanApplier;
import dev.cairn.compaction.testing.RandomShapes;
import dev.cairn.model.FileDescriptor;
import dev.cairn.model.KeyRange;
import dev.cairn.model.LsmShape;
import dev.cairn.model.UserKeyOrder;
import dev.cairn.testkit.LongTests;
import dev.cairn.testkit.Seeds;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Random valid shapes in, plans checked against the rules restated by brute force. Seeded: a
 * failure prints its seed; replay it with {@code -Dcairn.seed=<seed>}. {@code -Dcairn.long=true}
 * runs ten times as many shapes.
 */
class LeveledPickerPropertyTest {
  private static final int SHAPES = LongTests.enabled() ? 5000 : 500;

  @Test
  void everyPlanFollowsTheRules() {
    Seeds.forEach(SHAPES, seed -> {
      Random random = new Random(seed);
      RandomShapes gen = new RandomShapes(random);
      LeveledConfig config = gen.config();
      LeveledCompactionPicker picker = new LeveledCompactionPicker(config);
      LsmShape shape = gen.shape(config);
      Set<Long> busy = random.nextBoolean() ? Set.of() : gen.busy(shape, random.nextDouble() * 0.5);
      Optional<CompactionPlan> plan = picker.pick(shape, busy);
      if (plan.isPresent()) {
        checkPlan(config, shape, busy, plan.get(), true);
        if (busy.isEmpty()) {
          assertEquals(mostUrgentLevel(picker.scores(shape)), plan.get().inputLevel(),
              "with nothing busy the most urgent level goes first");
        }
      } else if (busy.isEmpty()) {
        for (LevelScore score : picker.scores(shape)) {
          assertFalse(score.isDue(), "nothing picked although " + score + " is due");
        }
      }
    });
  }

  @Test
  void parallelPlansAreDisjointAndApplyInAnyOrder() {
    Seeds.forEach(SHAPES, seed -> {
      Random random = new Random(seed);
      RandomShapes gen = new RandomShapes(random);
      LeveledConfig config = gen.config();
      LeveledCompactionPicker picker = new LeveledCompactionPicker(config);
      LsmShape shape = gen.shape(config);
      Set<Long> initiallyBusy = gen.busy(shape, random.nextDouble() * 0.2);
      // Half the shapes go through the id-only overload, half pass the plans themselves.
      boolean idsOnly = random.nextBoolean();
      Set<Long> busy = new HashSet<>(initiallyBusy);
      RunningCompactions running = RunningCompactions.fromBusyFiles(shape, initiallyBusy);
      List<CompactionPlan> plans = new ArrayList<>();
      while (true) {
        Optional<CompactionPlan> p =
            idsOnly ? picker.pick(shape, busy) : picker.pick(shape, running);
        if (p.isEmpty()) {
          break;
        }
        CompactionPlan plan = p.get();
        checkPlan(config, shape, busy, plan, true);
        for (CompactionPlan other : plans) {
          checkCompatible(plan, other);
        }
        plans.add(plan);
        busy.addAll(plan.fileIds());
        running = running.plus(plan);
        assertTrue(plans.size() <= shape.fileIds().size(), "picker keeps returning plans");
      }
      Collections.shuffle(plans, random);
      for (CompactionPlan plan : plans) {
        shape = PlanApplier.apply(shape, plan, gen::freshId); // re-validates every invariant
      }
      assertTrue(shape.fileIds().containsAll(initiallyBusy), "a busy file was compacted away");
    });
  }

  /** Aggressive compaction: draining until nothing is left puts all data in one level, by plans that obey the rules. */
  @Test
  void drainingMovesAllDataIntoOneLevel() {
    Seeds.forEach(SHAPES, seed -> {
      Random random = new Random(seed);
      RandomShapes gen = new RandomShapes(random);
      LeveledConfig config = gen.config();
      LeveledCompactionPicker picker = new LeveledCompactionPicker(config);
      LsmShape shape = gen.shape(config);
      int steps = 0;
      for (Optional<CompactionPlan> p = picker.pickDraining(shape, RunningCompactions.none()); p.isPresent();
          p = picker.pickDraining(shape, RunningCompactions.none())) {
        checkPlan(config, shape, Set.of(), p.get(), true);
        shape = PlanApplier.apply(shape, p.get(), gen::freshId);
        assertTrue(++steps < 20_000, "no convergence after " + steps + " plans");
      }
      int deepest = shape.deepestLevelWithFiles();
      for (int level = 0; level < deepest; level++) {
        assertTrue(shape.files(level).isEmpty(), "drained, yet L" + level + " holds files above L" + deepest);
      }
    });
  }

  /**
   * Compactions start and finish in random order, as in the engine: a plan is picked on a shape
   * where other plans have installed since the running ones were picked. Every new plan must be
   * compatible with every plan still running, and installing in completion order keeps the
   * shape valid.
   */
  @Test
  void plansPickedBetweenInstallsStayCompatible() {
    Seeds.forEach(SHAPES, seed -> {
      Random random = new Random(seed);
      RandomShapes gen = new RandomShapes(random);
      LeveledConfig config = gen.config();
      LeveledCompactionPicker picker = new LeveledCompactionPicker(config);
      LsmShape shape = gen.shape(config);
      List<CompactionPlan> running = new ArrayList<>();
      for (int step = 0; step < 200; step++) {
        boolean finishOne = !running.isEmpty() && random.nextInt(3) == 0;
        Optional<CompactionPlan> p = finishOne
            ? Optional.empty()
            : picker.pick(shape, RunningCompactions.of(running));
        if (p.isPresent()) {
          CompactionPlan plan = p.get();
          Set<Long> busy = new HashSet<>();
          running.forEach(r -> busy.addAll(r.fileIds()));
          checkPlan(config, shape, busy, plan, true);
          for (CompactionPlan other : running) {
            checkCompatible(plan, other);
          }
          running.add(plan);
        } else if (!running.isEmpty()) {
          CompactionPlan done = running.remove(random.nextInt(running.size()));
          shape = PlanApplier.apply(shape, done, gen::freshId);
        } else {
          break; // nothing running and nothing picked: nothing due
        }
      }
      for (CompactionPlan plan : running) {
        shape = PlanApplier.apply(shape, plan, gen::freshId);
      }
    });
  }

  @Test
  void pickingAndApplyingConvergesToNothingDue() {
    Seeds.forEach(SHAPES, seed -> {
      Random random = new Random(seed);
      RandomShapes gen = new RandomShapes(random);
      LeveledConfig config = gen.config();
      LeveledCompactionPicker picker = new LeveledCompactionPicker(config);
      LsmShape shape = gen.shape(config);
      int steps = 0;
      for (Optional<CompactionPlan> p = picker.pick(shape, Set.of()); p.isPresent();
          p = picker.pick(shape, Set.of())) {
        checkPlan(config, shape, Set.of(), p.get(), true);
        shape = PlanApplier.apply(shape, p.get(), gen::freshId);
        assertTrue(++steps < 10_000, "no convergence after 10000 compactions");
      }
      for (LevelScore score : picker.scores(shape)) {
        assertFalse(score.isDue(), score + " still due");
      }
    });
  }

  @Test
  void manualCompactionLoopEmptiesTheRange() {
    Seeds.forEach(SHAPES, seed -> {
      Random random = new Random(seed);
      RandomShapes gen = new RandomShapes(random);
      LeveledConfig config = gen.config();
      LeveledCompactionPicker picker = new LeveledCompactionPicker(config);
      LsmShape shape = gen.shape(config);
      int level = random.nextInt(config.numLevels() - 1);
      byte[] a = random.nextInt(4) == 0 ? null : gen.key();
      byte[] b = random.nextInt(4) == 0 ? null : gen.key();
      boolean swap = a != null && b != null && UserKeyOrder.compare(a, b) > 0;
      byte[] from = swap ? b : a;
      byte[] to = swap ? a : b;
      int steps = 0;
      for (Optional<CompactionPlan> p = picker.planManual(shape, level, from, to, Set.of());
          p.isPresent();
          p = picker.planManual(shape, level, from, to, Set.of())) {
        CompactionPlan plan = p.get();
        checkPlan(config, shape, Set.of(), plan, false);
        assertEquals(CompactionKind.TABLE_MERGE, plan.kind(), "manual steps rewrite");
        assertTrue(plan.inputs().stream().anyMatch(f -> f.overlaps(from, to)),
            "a manual step takes a file of the range");
        shape = PlanApplier.apply(shape, plan, gen::freshId);
        assertTrue(++steps < 1_000, "manual compaction does not finish");
      }
      assertTrue(shape.overlapping(level, from, to).isEmpty(), "range left in L" + level);
    });
  }

  /** The rules of the package-info, restated by brute force over the shape. */
  static void checkPlan(
      LeveledConfig config, LsmShape shape, Set<Long> busy, CompactionPlan plan, boolean picked) {
    int level = plan.inputLevel();
    assertEquals(level + 1, plan.outputLevel());
    assertTrue(level < shape.numLevels() - 1);
    assertTrue(shape.files(level).containsAll(plan.inputs()), "inputs not on the input level");
    assertTrue(shape.files(level + 1).containsAll(plan.targets()), "targets not on output level");

    KeyRange inputRange = plan.inputRange();
    assertEquals(overlapping(shape.files(level + 1), inputRange), plan.targets(),
        "targets are exactly the output-level files overlapping the inputs");
    assertEquals(new HashSet<>(overlapping(shape.files(level), inputRange)),
        new HashSet<>(plan.inputs()),
        "inputs are closed: every input-level file in their range is an input");
    KeyRange whole = plan.keyRange();
    List<FileDescriptor> expectedGrandparents =
        level + 2 < shape.numLevels() ? overlapping(shape.files(level + 2), whole) : List.of();
    assertEquals(expectedGrandparents, plan.grandparents(), "grandparents");

    for (FileDescriptor f : plan.inputs()) {
      assertFalse(busy.contains(f.id()), "busy input " + f);
    }
    for (FileDescriptor f : plan.targets()) {
      assertFalse(busy.contains(f.id()), "busy target " + f);
    }
    if (level == 0) {
      for (FileDescriptor f : shape.files(0)) {
        assertFalse(busy.contains(f.id()), "L0 plan while L0 file " + f.id() + " is busy");
      }
    }

    boolean dataBelow = false;
    for (int deeper = level + 2; deeper < shape.numLevels(); deeper++) {
      dataBelow |= !overlapping(shape.files(deeper), whole).isEmpty();
    }
    assertEquals(!dataBelow, plan.bottommost(), "bottommost");

    assertArrayEquals(inputRange.largest(), plan.newCompactionPointer(), "pointer");
    long gpBytes = plan.grandparents().stream().mapToLong(FileDescriptor::sizeBytes).sum();
    boolean trivialAllowed = picked && plan.inputs().size() == 1 && plan.targets().isEmpty()
        && gpBytes <= config.maxGrandparentOverlapBytes();
    assertEquals(trivialAllowed, plan.isTrivialMove(), "trivial move rule");
    if (picked && level > 0 && plan.inputs().size() > 1) {
      long bytes = plan.inputs().stream().mapToLong(FileDescriptor::sizeBytes).sum()
          + plan.targets().stream().mapToLong(FileDescriptor::sizeBytes).sum();
      assertTrue(bytes < config.maxExpandedBytes(), "expanded beyond the limit");
    }
  }

  /** Two plans may run at once: no shared file, no L0 twice, no overlapping writes or reads. */
  static void checkCompatible(CompactionPlan a, CompactionPlan b) {
    Set<Long> shared = new HashSet<>(a.fileIds());
    shared.retainAll(b.fileIds());
    assertTrue(shared.isEmpty(), "plans share files " + shared);
    assertFalse(a.inputLevel() == 0 && b.inputLevel() == 0, "two L0 compactions at once");
    for (CompactionPlan[] pair : new CompactionPlan[][] {{a, b}, {b, a}}) {
      CompactionPlan writer = pair[0];
      CompactionPlan other = pair[1];
      if (writer.outputLevel() == other.outputLevel()) {
        assertFalse(writer.keyRange().overlaps(other.keyRange()),
            "two plans write overlapping ranges of L" + writer.outputLevel() + ":\n" + a
                + "\n" + b);
      }
      if (writer.outputLevel() == other.inputLevel()) {
        assertFalse(writer.keyRange().overlaps(other.inputRange()),
            "a plan writes where another reads in L" + writer.outputLevel() + ":\n" + a + "\n" + b);
      }
    }
  }

  private static List<FileDescriptor> overlapping(List<FileDescriptor> files, KeyRange range) {
    List<FileDescriptor> result = new ArrayList<>();
    for (FileDescriptor f : files) {
      if (range.overlaps(f)) {
        result.add(f);
      }
    }
    return result;
  }

  private static int mostUrgentLevel(List<LevelScore> scores) {
    LevelScore best = scores.get(0);
    for (LevelScore s : scores) {
      if (s.score() > best.score()) {
        best = s;
      }
    }
    return best.level();
  }
}
