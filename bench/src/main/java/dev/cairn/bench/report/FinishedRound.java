package dev.cairn.bench.report;

import dev.cairn.bench.RunConfig;
import dev.cairn.bench.cli.UsageException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * A round of a series that ended before the series was stopped, read back from its folder so the
 * series can resume without running it again. A round is finished once its report.md is written:
 * the runner writes it after the round's last run, while summary.json is rewritten after each run.
 */
public final class FinishedRound {
  private FinishedRound() {}

  /** Whether {@code roundDir} holds a round that ran to its end. */
  public static boolean isFinished(Path roundDir) {
    return Files.isRegularFile(roundDir.resolve("report.md")) && Files.isRegularFile(roundDir.resolve("summary.json"));
  }

  /**
   * The figures of the finished round in {@code roundDir}.
   *
   * @throws UsageException if the round ran with another configuration than {@code config}: a
   *     series mixing the two would compare runs of different shapes
   */
  public static List<RunFigures> figures(Path roundDir, RunConfig config) throws IOException {
    Map<String, Object> recorded = new java.util.LinkedHashMap<>(RunFigures.configOfRecords(roundDir));
    RunConfig.KEYS_ADDED_LATER.forEach(recorded::putIfAbsent);
    // Through JSON and back, so that numbers compare as the record holds them.
    Object expected = JsonParser.parse(Json.write(config.asMap()));
    if (!recorded.equals(expected)) {
      throw new UsageException(roundDir + " holds a round run with another configuration ("
          + Json.write(recorded) + ", not " + Json.write(expected) + "): move it away to run the round again");
    }
    return RunFigures.fromRecords(roundDir);
  }
}
