package dev.cairn.compaction.dlsm;

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
 * Shape in, plan out for {@link TwoPhaseCompactionPicker}: every case in {@code
 * src/test/resources/two-phase/*.txt} (shapes as {@link ShapeText} writes them). Commands: {@code
 * pick}, {@code pick-parallel} (pick and add to the running compactions until nothing is left),
 * {@code drain} ({@link TwoPhaseCompactionPicker#pickDraining}) and {@code scores}, each with an optional {@code pairs=N} (default 1). Rewrite the expected outputs
 * with {@code -Dcairn.rewrite=true} and review the diff.
 */
class TwoPhasePickerGoldenTest {
  private static final Pattern PAIRS = Pattern.compile("\\s*pairs=(\\d+)");

  @TestFactory
  Stream<DynamicTest> goldenFiles() {
    return DataDrivenFile.dynamicTests(
        DataDrivenFile.sourcePath("compaction", "two-phase"), TwoPhasePickerGoldenTest::runCase);
  }

  static String runCase(DataDrivenFile.Case c) {
    ShapeText.Scenario s = ShapeText.parse(c.input().subList(1, c.input().size()));
    String command = c.command().trim();
    int pairs = 1;
    Matcher p = PAIRS.matcher(command);
    if (p.find()) {
      pairs = Integer.parseInt(p.group(1));
      command = p.replaceFirst("").trim();
    }
    TwoPhaseCompactionPicker picker = new TwoPhaseCompactionPicker(new TwoPhaseLayout(s.config(), pairs));
    switch (command) {
      case "pick":
        return ShapeText.render(picker.pick(s.shape(), s.busy()));
      case "drain":
        return ShapeText.render(picker.pickDraining(s.shape(), RunningCompactions.fromBusyFiles(s.shape(), s.busy())));
      case "scores":
        return ShapeText.renderScores(picker.scores(s.shape()));
      case "pick-parallel":
        RunningCompactions running = RunningCompactions.fromBusyFiles(s.shape(), s.busy());
        List<String> plans = new ArrayList<>();
        for (Optional<CompactionPlan> plan = picker.pick(s.shape(), running); plan.isPresent();
            plan = picker.pick(s.shape(), running)) {
          plans.add(ShapeText.render(plan));
          running = running.plus(plan.get());
        }
        plans.add("no further compaction");
        return String.join("\n", plans);
      default:
        throw new IllegalArgumentException("unknown command: " + command);
    }
  }
}
