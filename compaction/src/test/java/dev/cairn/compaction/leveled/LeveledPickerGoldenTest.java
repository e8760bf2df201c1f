package dev.cairn.compaction.leveled;


import dev.cairn.compaction.CompactionPlan;
import dev.cairn.compaction.RunningCompactions;
import dev.cairn.compaction.testing.ShapeText;
import dev.cairn.testkit.DataDrivenFile;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * Shape in, plan out: runs every case in {@code src/test/resources/picker/*.txt} (format in
 * {@link DataDrivenFile} and {@link ShapeText}). Commands:
 *
 * <ul>
 *   <li>{@code pick} — the plan {@link LeveledCompactionPicker#pick} returns;
 *   <li>{@code pick-parallel} — pick, add the plan to the running compactions, pick again, until
 *       nothing is left: the compactions that could run at once (the {@code busy:} files are
 *       read as {@link RunningCompactions#fromBusyFiles});
 *   <li>{@code scores} — {@link LeveledCompactionPicker#scores};
 *   <li>{@code manual L<n> <from>..<to>} — {@link LeveledCompactionPicker#planManual}; {@code *}
 *       leaves a side open.
 * </ul>
 *
 * Any command may name the {@link CompactionPriority}: {@code pick priority=min-overlap}
 * (default round-robin).
 *
 * Rewrite the expected outputs with {@code -Dcairn.rewrite=true}.
 */
class LeveledPickerGoldenTest {
  private static final Pattern MANUAL = Pattern.compile("manual L(\\d+) (\\S+)\\.\\.(\\S+)");
  private static final Pattern PRIORITY = Pattern.compile("\\s*priority=(\\S+)");

  @TestFactory
  Stream<DynamicTest> goldenFiles() {
    return DataDrivenFile.dynamicTests(
        DataDrivenFile.sourcePath("compaction", "picker"), LeveledPickerGoldenTest::runCase);
  }

  static String runCase(DataDrivenFile.Case c) {
    ShapeText.Scenario s = ShapeText.parse(c.input().subList(1, c.input().size()));
    String command = c.command().trim();
    CompactionPriority priority = CompactionPriority.ROUND_ROBIN;
    Matcher p = PRIORITY.matcher(command);
    if (p.find()) {
      priority = CompactionPriority.fromSettingName(p.group(1));
      command = p.replaceFirst("").trim();
    }
    LeveledCompactionPicker picker = new LeveledCompactionPicker(s.config(), priority);
    if (command.equals("pick")) {
      return ShapeText.render(picker.pick(s.shape(), s.busy()));
    }
    if (command.equals("scores")) {
      return ShapeText.renderScores(picker.scores(s.shape()));
    }
    if (command.equals("pick-parallel")) {
      RunningCompactions running = RunningCompactions.fromBusyFiles(s.shape(), s.busy());
      List<String> plans = new ArrayList<>();
      for (Optional<CompactionPlan> plan = picker.pick(s.shape(), running);
          plan.isPresent();
          plan = picker.pick(s.shape(), running)) {
        plans.add(ShapeText.render(plan));
        running = running.plus(plan.get());
      }
      plans.add("no further compaction");
      return String.join("\n", plans);
    }
    Matcher m = MANUAL.matcher(command);
    if (m.matches()) {
      return ShapeText.render(
          picker.planManual(s.shape(), Integer.parseInt(m.group(1)), ShapeText.key(m.group(2)),
              ShapeText.key(m.group(3)), s.busy()));
    }
    throw new IllegalArgumentException("unknown command: " + command);
  }
}
