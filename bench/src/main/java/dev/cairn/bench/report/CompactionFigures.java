package dev.cairn.bench.report;

import dev.cairn.bench.run.RunResult;
import java.util.List;
import java.util.stream.Collectors;

/**
 * report.md's second table per workload: the figures issues 4 and 5 compare compaction styles
 * by (BlockDB: write amplification per level, run time, space amplification at its peak and at
 * the end, cache misses and scans after the phase; LSbM: the buffer's extra space; the simulated
 * device's seeks). A column no run of the workload filled is left out, so that a plain run's
 * report stays as it was apart from the per-level column.
 */
final class CompactionFigures {
  private CompactionFigures() {}

  private record Column(String title, java.util.function.Function<RunResult, String> cell, boolean alwaysShown) {}

  private static final List<Column> COLUMNS = List.of(
      new Column("write amp by level (L0, L1, ...)", CompactionFigures::byLevel, true),
      new Column("run s", r -> MarkdownReport.f(r.runSeconds(), 1), true),
      new Column("of which settling s", r -> MarkdownReport.f(r.settleSeconds(), 1), false),
      new Column("space amp end", r -> MarkdownReport.f(r.spaceAmplification(), 2), true),
      new Column("space amp peak", r -> MarkdownReport.f(r.spaceAmplificationPeak(), 2), true),
      new Column("mixed hit ratio", r -> MarkdownReport.f(r.followUp().mixedHitRatio(), 3), false),
      new Column("mixed cache misses", r -> MarkdownReport.f(r.followUp().mixedCacheMisses(), 0), false),
      new Column("mixed reads/s", r -> MarkdownReport.f(r.followUp().mixedReadsPerSecond(), 0), false),
      new Column("mixed writes/s", r -> MarkdownReport.f(r.followUp().mixedWritesPerSecond(), 0), false),
      new Column("reads/s after", r -> MarkdownReport.f(r.followUp().readOpsPerSecond(), 0), false),
      new Column("hit ratio after", r -> MarkdownReport.f(r.followUp().readHitRatio(), 3), false),
      new Column("scans/s after", r -> MarkdownReport.f(r.followUp().scanOpsPerSecond(), 0), false),
      new Column("buffer MiB mean", r -> MarkdownReport.f(r.bufferBytesMean() / (1 << 20), 1), false),
      new Column("buffer MiB max", r -> MarkdownReport.f(r.bufferBytesMax() / (1 << 20), 1), false),
      new Column("simulated seeks", r -> MarkdownReport.f(r.simulatedSeeks(), 0), false),
      new Column("mixed simulated seeks", r -> MarkdownReport.f(r.followUp().mixedSimulatedSeeks(), 0), false));

  static void render(StringBuilder sb, List<RunResult> results, String workload) {
    List<RunResult> runs = results.stream().filter(r -> r.workload().equals(workload)).toList();
    List<Column> shown = COLUMNS.stream()
        .filter(c -> c.alwaysShown() || runs.stream().anyMatch(r -> !c.cell().apply(r).equals("n/a")))
        .toList();
    sb.append("| engine | ").append(shown.stream().map(Column::title).collect(Collectors.joining(" | ")))
        .append(" |\n|---|").append("---|".repeat(shown.size())).append('\n');
    for (RunResult r : runs) {
      sb.append("| ").append(r.engine()).append(" | ")
          .append(shown.stream().map(c -> c.cell().apply(r)).collect(Collectors.joining(" | "))).append(" |\n");
    }
    sb.append('\n');
  }

  private static String byLevel(RunResult r) {
    if (r.writeAmplificationByLevel().isEmpty()) {
      return "n/a";
    }
    return r.writeAmplificationByLevel().stream().map(d -> MarkdownReport.f(d, 2)).collect(Collectors.joining(", "));
  }
}
