package dev.cairn.bench.report;

import dev.cairn.bench.RunConfig;
import dev.cairn.bench.cli.UsageException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

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
   * @param engines the engines the round is to hold, in any order
   * @param workloads the workloads each of them is to have run
   * @throws UsageException if the round ran with another configuration than {@code config}, or
   *     other engines or workloads: a series mixing the two would compare runs of different shapes
   */
  public static List<RunFigures> figures(Path roundDir, RunConfig config, List<String> engines,
      List<String> workloads) throws IOException {
    Map<String, Object> recorded = new java.util.LinkedHashMap<>(RunFigures.configOfRecords(roundDir));
    RunConfig.KEYS_ADDED_LATER.forEach(recorded::putIfAbsent);
    // Through JSON and back, so that numbers compare as the record holds them.
    Object expected = JsonParser.parse(Json.write(config.asMap()));
    if (!recorded.equals(expected)) {
      throw new UsageException(roundDir + " holds a round run with another configuration ("
          + Json.write(recorded) + ", not " + Json.write(expected) + "): move it away to run the round again");
    }
    List<RunFigures> figures = RunFigures.fromRecords(roundDir);
    Set<String> asked = new TreeSet<>();
    engines.forEach(e -> workloads.forEach(w -> asked.add(e + " " + w)));
    Set<String> held = new TreeSet<>();
    figures.forEach(f -> held.add(f.engine() + " " + f.workload()));
    if (!held.equals(asked)) {
      throw new UsageException(roundDir + " holds a round of other engines or workloads (" + held + ", not "
          + asked + "): move it away to run the round again");
    }
    return figures;
  }
}
