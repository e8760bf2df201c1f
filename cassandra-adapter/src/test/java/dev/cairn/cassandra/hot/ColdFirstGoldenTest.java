package dev.cairn.cassandra.hot;

import dev.cairn.compaction.RunningCompactions;
import dev.cairn.compaction.leveled.LeveledBacklog;
import dev.cairn.compaction.leveled.LeveledCompactionPicker;
import dev.cairn.compaction.testing.ShapeText;
import dev.cairn.testkit.DataDrivenFile;
import java.util.HashMap;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * Shape and read rates in, choice out: every case in {@code src/test/resources/hot/*.txt}, in the
 * picker's golden format ({@link DataDrivenFile}, {@link ShapeText}). Commands:
 *
 * <pre>
 * choose heat=3:120,4:0.5 factor=2 max-score=2 max-postpone=60000 held-ms=1000
 * backlog
 * </pre>
 *
 * {@code heat} gives reads per second per file id (others 0); {@code factor}, {@code max-score},
 * {@code max-postpone} set {@link HotSparingConfig} (defaults 2, 2, 60000); {@code held-ms} asks
 * once, moves the simulated clock on by that many milliseconds and prints the second answer.
 * {@code backlog} prints {@link LeveledBacklog#estimatedTasks}. Busy files ({@code busy:}) are
 * read with {@link RunningCompactions#fromBusyFiles}.
 *
 * <p>Rewrite the expected outputs with {@code -Dcairn.rewrite=true}.
 */
class ColdFirstGoldenTest {

  @TestFactory
  Stream<DynamicTest> goldenFiles() {
    return DataDrivenFile.dynamicTests(
        DataDrivenFile.sourcePath("cassandra-adapter", "hot"), ColdFirstGoldenTest::runCase);
  }

  static String runCase(DataDrivenFile.Case c) {
    ShapeText.Scenario s = ShapeText.parse(c.body());
    Map<String, String> args = c.args();
    switch (c.verb()) {
      case "backlog":
        return "tasks: " + LeveledBacklog.estimatedTasks(s.shape(), s.config());
      case "choose":
        break;
      default:
        throw new IllegalArgumentException("unknown command: " + c.verb());
    }
    HotSparingConfig config = new HotSparingConfig(
        Double.parseDouble(args.getOrDefault("factor", "2")),
        Double.parseDouble(args.getOrDefault("max-score", "2")),
        Long.parseLong(args.getOrDefault("max-postpone", "60000")));
    long[] nowNanos = {0};
    ColdFirstChooser chooser =
        new ColdFirstChooser(new LeveledCompactionPicker(s.config()), config, () -> nowNanos[0]);
    ReadHeat heat = heat(args.get("heat"));
    RunningCompactions running = RunningCompactions.fromBusyFiles(s.shape(), s.busy());
    ColdFirstChooser.Choice choice = chooser.choose(s.shape(), running, heat);
    if (args.containsKey("held-ms")) {
      nowNanos[0] += Long.parseLong(args.get("held-ms")) * 1_000_000;
      choice = chooser.choose(s.shape(), running, heat);
    }
    ColdFirstChooser.Counters n = chooser.counters();
    String counters = "spared=" + n.hotPlansSpared() + " postponements=" + n.postponements()
        + " at-bound=" + n.hotRunsAtBound();
    return choice.outcome() + " (" + counters + ")\n"
        + (choice.plan().isEmpty() ? choice.reason() : ShapeText.render(choice.plan()));
  }

  private static ReadHeat heat(String list) {
    Map<Long, Double> rates = new HashMap<>();
    if (list != null && !list.isEmpty()) {
      for (String pair : list.split(",")) {
        String[] idRate = pair.split(":", 2);
        rates.put(Long.parseLong(idRate[0]), Double.parseDouble(idRate[1]));
      }
    }
    return ReadHeat.of(rates);
  }
}
