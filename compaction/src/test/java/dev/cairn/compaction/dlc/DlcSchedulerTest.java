package dev.cairn.compaction.dlc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cairn.compaction.CompactionKind;
import dev.cairn.compaction.CompactionPlan;
import dev.cairn.compaction.leveled.LeveledCompactionPicker;
import dev.cairn.compaction.testing.PlanApplier;
import dev.cairn.compaction.testing.ShapeText;
import dev.cairn.model.FileDescriptor;
import dev.cairn.model.LsmShape;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** DLC's scheduling decisions: shape, load and running compactions in, decision out. */
class DlcSchedulerTest {
  private static final DlcConfig CONFIG = DlcConfig.builder()
      .partTriggerFreshFiles(4).fullTriggerL0Files(7).partRunsBeforeFull(2).build();

  private static ShapeText.Scenario scenario(String... lines) {
    return ShapeText.parse(List.of(lines));
  }

  private static DlcScheduler scheduler(ShapeText.Scenario s, DlcConfig config) {
    return new DlcScheduler(config, new LeveledCompactionPicker(s.config()));
  }

  /** The decision in one line: action, kind, levels and input ids; or NONE with its reason. */
  private static String render(DlcScheduler.Decision d) {
    if (d.plan().isEmpty()) {
      return "NONE (" + d.reason() + ")";
    }
    CompactionPlan p = d.plan().get();
    return d.action() + " " + p.kind() + " L" + p.inputLevel() + "->L" + p.outputLevel() + " inputs "
        + p.inputs().stream().map(f -> String.valueOf(f.id())).collect(Collectors.joining(","))
        + " targets " + p.targets().stream().map(f -> String.valueOf(f.id())).collect(Collectors.joining(","));
  }

  private static final String[] THREE_FRESH = {
      "L0: 15[a..z 1MiB seq=15] 14[a..z 1MiB seq=14] 13[a..z 1MiB seq=13]",
      "L1: 1[a..m 1MiB] 2[n..z 1MiB]"};

  @Test
  void lowLoadLeavesEveryDecisionToThePicker() {
    ShapeText.Scenario s = scenario("L0: 12[a..c 1MiB] 11[b..d 1MiB] 10[c..e 1MiB] 9[a..b 1MiB]",
        "L1: 1[a..m 1MiB]");
    DlcScheduler.Decision d = scheduler(s, CONFIG).next(LoadClass.LOW, s.shape(), List.of(), Set.of());
    assertEquals("PICKER TABLE_MERGE L0->L1 inputs 12,11,10,9 targets 1", render(d));
  }

  @Test
  void highLoadHoldsL0BackAndCountsEachNewlyHeldShapeOnce() {
    ShapeText.Scenario s = scenario("config trigger=2", THREE_FRESH[0], THREE_FRESH[1]);
    DlcScheduler dlc = scheduler(s, CONFIG.toBuilder().partTriggerFreshFiles(6).build());
    assertEquals("NONE (high load: L0 compaction delayed)",
        render(dlc.next(LoadClass.HIGH, s.shape(), List.of(), Set.of())));
    dlc.next(LoadClass.HIGH, s.shape(), List.of(), Set.of());
    assertEquals(1, dlc.counters().delayedL0Compactions());
    ShapeText.Scenario more = scenario("config trigger=2",
        THREE_FRESH[0] + " 12[a..z 1MiB seq=12]", THREE_FRESH[1]);
    dlc.next(LoadClass.HIGH, more.shape(), List.of(), Set.of());
    assertEquals(2, dlc.counters().delayedL0Compactions());
    // The load drops: the held compaction resumes.
    assertEquals("PICKER TABLE_MERGE L0->L1 inputs 15,14,13,12 targets 1,2",
        render(dlc.next(LoadClass.LOW, more.shape(), List.of(), Set.of())));
  }

  @Test
  void highLoadRunsAtMostOneCompactionBelowL0() {
    ShapeText.Scenario s = scenario("config base=1MiB trigger=2",
        "L0: 15[a..z 1MiB seq=15] 14[a..z 1MiB seq=14]",
        "L1: 1[a..b 1MiB] 2[c..d 1MiB] 3[e..f 1MiB]",
        "L2: 4[a..z 1MiB]");
    DlcScheduler dlc = scheduler(s, CONFIG);
    DlcScheduler.Decision first = dlc.next(LoadClass.HIGH, s.shape(), List.of(), Set.of());
    assertEquals("LOWER_LEVEL TABLE_MERGE L1->L2 inputs 1,2,3 targets 4", render(first));
    assertEquals("NONE (high load: one compaction below L0 already runs)",
        render(dlc.next(LoadClass.HIGH, s.shape(), List.of(first.plan().get()), Set.of())));
  }

  @Test
  void resumePartMergesOnlyTheNewestContiguousFreshTables() {
    // 20 and 19 are fresh, 18 was written by a part run, 17..16 are fresh but older than 18.
    ShapeText.Scenario s = scenario("config trigger=2",
        "L0: 23[a..z 1MiB seq=23] 22[a..z 1MiB seq=22] 21[a..z 1MiB seq=21] 20[a..z 1MiB seq=20]"
            + " 18[a..z 4MiB seq=18] 17[a..z 1MiB seq=17]",
        "L1: 1[a..z 1MiB]");
    DlcScheduler dlc = scheduler(s, CONFIG);
    DlcScheduler.Decision d = dlc.next(LoadClass.HIGH, s.shape(), List.of(), Set.of(18L));
    assertEquals("RESUME_PART L0_TO_L0 L0->L0 inputs 23,22,21,20 targets ", render(d));
    CompactionPlan p = d.plan().get();
    assertEquals(false, p.bottommost());
    assertEquals(Long.MAX_VALUE, p.outputLimits().targetFileBytes());
    assertEquals(1, dlc.counters().partRuns());
    // While it runs, L0 is busy: nothing else from L0, the L1 compaction may still go.
    assertEquals("NONE (high load: L0 compaction delayed)",
        render(dlc.next(LoadClass.HIGH, s.shape(), List.of(p), Set.of(18L))));
  }

  @Test
  void resumeFullAtTheL0FileThreshold() {
    ShapeText.Scenario s = scenario("config trigger=2",
        "L0: 7[a..z 1MiB seq=7] 6[a..z 1MiB seq=6] 5[a..z 1MiB seq=5] 4[a..z 1MiB seq=4]"
            + " 3[a..z 1MiB seq=3] 2[a..z 1MiB seq=2] 1[a..z 1MiB seq=1]",
        "L1: 10[a..z 1MiB]");
    DlcScheduler dlc = scheduler(s, CONFIG);
    DlcScheduler.Decision d = dlc.next(LoadClass.HIGH, s.shape(), List.of(), Set.of(6L, 3L));
    assertEquals("RESUME_FULL TABLE_MERGE L0->L1 inputs 7,6,5,4,3,2,1 targets 10", render(d));
    assertTrue(d.reason().startsWith("DLC resume full: 7 L0 files"), d.reason());
    assertEquals(1, dlc.counters().fullRuns());
  }

  @Test
  void delayPartMergesFreshTablesAtTheCompactionTrigger() {
    ShapeText.Scenario s = scenario("config trigger=3",
        "L0: 9[a..z 1MiB seq=9] 8[a..z 1MiB seq=8] 7[a..z 1MiB seq=7]", "L1: 1[a..z 1MiB]");
    DlcConfig part = CONFIG.toBuilder().delayPolicy(DlcConfig.DelayPolicy.DELAY_PART).build();
    assertEquals("RESUME_PART L0_TO_L0 L0->L0 inputs 9,8,7 targets ",
        render(scheduler(s, part).next(LoadClass.HIGH, s.shape(), List.of(), Set.of())));
    assertEquals("NONE (high load: L0 compaction delayed)",
        render(scheduler(s, CONFIG).next(LoadClass.HIGH, s.shape(), List.of(), Set.of())));
  }

  /**
   * A simulated sustained high load: one flush per step, every started plan completes before
   * the next step. Bursty compaction must keep L0 below the full threshold plus one, run part
   * runs before full ones, and never merge a part output in a part run.
   */
  @Test
  void sustainedHighLoadKeepsL0BoundedWithPartThenFullRuns() {
    long seed = new SplittableRandom().nextLong();
    SplittableRandom random = new SplittableRandom(seed);
    ShapeText.Scenario s = scenario("config trigger=4", "L1: 1000[a..z 8MiB]");
    DlcScheduler dlc = scheduler(s, CONFIG);
    AtomicLong ids = new AtomicLong(2000);
    LsmShape shape = s.shape();
    Set<Long> bursty = new HashSet<>();
    List<String> kinds = new ArrayList<>();
    int maxL0 = 0;
    for (long step = 1; step <= 60; step++) {
      long id = ids.incrementAndGet();
      char lo = (char) ('a' + random.nextInt(10));
      shape = PlanApplier.apply(shape, flushOf(shape, id, lo), () -> id);
      maxL0 = Math.max(maxL0, shape.files(0).size());
      DlcScheduler.Decision d = dlc.next(LoadClass.HIGH, shape, List.of(), bursty);
      if (d.plan().isPresent()) {
        CompactionPlan p = d.plan().get();
        if (p.kind() == CompactionKind.L0_TO_L0) {
          for (FileDescriptor f : p.inputs()) {
            assertTrue(!bursty.contains(f.id()), "seed " + seed + ": part run re-merged " + f.id());
          }
        }
        long out = ids.incrementAndGet();
        shape = PlanApplier.apply(shape, p, () -> out);
        if (p.kind() == CompactionKind.L0_TO_L0) {
          bursty.add(out);
        }
        kinds.add(d.action().toString());
      }
    }
    assertTrue(maxL0 <= CONFIG.fullTriggerL0Files(), "seed " + seed + ": L0 reached " + maxL0);
    // part, part, then full: partRunsBeforeFull = 2
    assertEquals(List.of("RESUME_PART", "RESUME_PART", "RESUME_FULL"), kinds.subList(0, 3), "seed " + seed);
    assertTrue(dlc.counters().fullRuns() >= 3, "seed " + seed + ": " + dlc.counters());
  }

  /** A plan-shaped stand-in for a flush: adds one newest L0 file (the applier adds it at L0). */
  private static CompactionPlan flushOf(LsmShape shape, long id, char lo) {
    FileDescriptor f = new FileDescriptor(id, new byte[] {(byte) lo}, new byte[] {(byte) (lo + 10)},
        1 << 20, 0, 1 << 20, 0.0, id, id);
    return new FlushPlan(f).plan();
  }

  /** An L0->L0 "merge" of one new file is exactly what a flush adds to the shape. */
  private record FlushPlan(FileDescriptor file) {
    CompactionPlan plan() {
      return DlcScheduler.l0ToL0(List.of(file), "flush");
    }
  }
}
