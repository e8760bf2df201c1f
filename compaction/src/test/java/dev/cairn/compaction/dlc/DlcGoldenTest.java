package dev.cairn.compaction.dlc;


import dev.cairn.compaction.CompactionPlan;
import dev.cairn.compaction.RunningCompactions;
import dev.cairn.compaction.leveled.LeveledCompactionPicker;
import dev.cairn.compaction.testing.ShapeText;
import dev.cairn.testkit.DataDrivenFile;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * Shape and load in, decision out: every case in {@code src/test/resources/dlc/*.txt}, in the
 * picker's golden format ({@link DataDrivenFile}, {@link ShapeText}). One command:
 *
 * <pre>
 * dlc load=HIGH bursty=6,3 running=4,5 policy=part part=4 full=7 runs=2 prior-parts=1
 * dlc load=HIGH part=9 max-delay=1000 held-ms=1500
 * </pre>
 *
 * {@code load} is required; {@code bursty} lists L0 ids written by part runs; {@code running}
 * lists file ids held by running compactions (read as one running plan each via {@link
 * RunningCompactions#fromBusyFiles}, so give every file of a running plan); {@code part}, {@code
 * full}, {@code runs} set {@code partTriggerFreshFiles}, {@code fullTriggerL0Files}, {@code
 * partRunsBeforeFull} (defaults 4, 7, 4); {@code prior-parts} replays that many part runs first;
 * {@code max-delay} sets {@code maxDelayMillis}, and {@code held-ms} asks once, moves the
 * simulated clock on by that many milliseconds and prints the second answer.
 * The output is the action, then the plan as the picker's golden files print it.
 *
 * <p>Rewrite the expected outputs with {@code -Dcairn.rewrite=true}.
 */
class DlcGoldenTest {

  @TestFactory
  Stream<DynamicTest> goldenFiles() {
    return DataDrivenFile.dynamicTests(
        DataDrivenFile.sourcePath("compaction", "dlc"), DlcGoldenTest::runCase);
  }

  static String runCase(DataDrivenFile.Case c) {
    if (!c.verb().equals("dlc")) {
      throw new IllegalArgumentException("unknown command: " + c.verb());
    }
    Map<String, String> args = c.args();
    ShapeText.Scenario s = ShapeText.parse(c.body());
    DlcConfig config = DlcConfig.builder()
        .delayPolicy("part".equals(args.get("policy"))
            ? DlcConfig.DelayPolicy.DELAY_PART : DlcConfig.DelayPolicy.DELAY_FULL)
        .partTriggerFreshFiles(Integer.parseInt(args.getOrDefault("part", "4")))
        .fullTriggerL0Files(Integer.parseInt(args.getOrDefault("full", "7")))
        .partRunsBeforeFull(Integer.parseInt(args.getOrDefault("runs", "4")))
        .maxDelayMillis(Long.parseLong(args.getOrDefault("max-delay", "0")))
        .build();
    LeveledCompactionPicker picker = new LeveledCompactionPicker(s.config());
    long[] nowNanos = {0};
    DlcScheduler scheduler = new DlcScheduler(config, picker, () -> nowNanos[0]);
    int priorParts = Integer.parseInt(args.getOrDefault("prior-parts", "0"));
    for (int i = 0; i < priorParts; i++) {
      // Replay part runs on a throwaway shape of four fresh files so the count is where asked.
      ShapeText.Scenario four = ShapeText.parse(List.of(
          "L0: 904[a..b 1MiB seq=904] 903[a..b 1MiB seq=903] 902[a..b 1MiB seq=902] 901[a..b 1MiB seq=901]"));
      DlcScheduler.Decision d = scheduler.next(LoadClass.HIGH, four.shape(), List.of(), Set.of());
      if (d.action() != DlcScheduler.Action.RESUME_PART) {
        throw new IllegalStateException("prior part run was " + d.action());
      }
    }
    LoadClass load = LoadClass.valueOf(args.get("load"));
    Set<Long> bursty = ids(args.get("bursty"));
    List<CompactionPlan> running = new ArrayList<>();
    Set<Long> busy = ids(args.get("running"));
    if (!busy.isEmpty()) {
      running.add(runningPlan(s, busy));
    }
    DlcScheduler.Decision d = scheduler.next(load, s.shape(), running, bursty);
    if (args.containsKey("held-ms")) {
      nowNanos[0] += Long.parseLong(args.get("held-ms")) * 1_000_000;
      d = scheduler.next(load, s.shape(), running, bursty);
    }
    return d.action() + (d.plan().isEmpty() ? " (" + d.reason() + ")" : "\n" + ShapeText.render(d.plan()));
  }

  /** The running plan over {@code busy}: the picker's manual plan of their level, which names them. */
  private static CompactionPlan runningPlan(ShapeText.Scenario s, Set<Long> busy) {
    int level = -1;
    for (int l = 0; l < s.shape().numLevels() && level < 0; l++) {
      for (var f : s.shape().files(l)) {
        if (busy.contains(f.id())) {
          level = l;
        }
      }
    }
    List<dev.cairn.model.FileDescriptor> inputs = new ArrayList<>();
    s.shape().files(level).stream().filter(f -> busy.contains(f.id())).forEach(inputs::add);
    List<dev.cairn.model.FileDescriptor> targets = new ArrayList<>();
    s.shape().files(level + 1).stream().filter(f -> busy.contains(f.id())).forEach(targets::add);
    return new CompactionPlan(dev.cairn.compaction.CompactionKind.TABLE_MERGE, level, level + 1, inputs,
        targets, List.of(), null, false, new dev.cairn.compaction.OutputLimits(1 << 20, 1 << 20), "running");
  }

  private static Set<Long> ids(String list) {
    Set<Long> ids = new HashSet<>();
    if (list != null && !list.isEmpty()) {
      for (String id : list.split(",")) {
        ids.add(Long.parseLong(id));
      }
    }
    return ids;
  }
}
