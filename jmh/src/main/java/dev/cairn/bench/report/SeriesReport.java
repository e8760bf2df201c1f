package dev.cairn.bench.report;

import dev.cairn.bench.engine.Engines;
import dev.cairn.bench.run.RunResult;
import dev.cairn.bench.run.Sample;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.ToDoubleFunction;
import java.util.stream.Stream;

/**
 * series.md of {@code compare --repeat N}: every figure as its median over the rounds, with the
 * smallest and largest round beside it. One whole run on this machine's two shared cores can go at
 * two-thirds of the next one's speed on every path (docs/results/issue21, "Seventh session"), so a
 * comparison one run cannot decide is decided by the median of a series.
 *
 * <p>A ratio is the median of the per-round ratios, not the ratio of the medians: the two engines
 * of one round ran minutes apart on the same machine state, so their ratio carries less of the
 * machine's drift than two medians taken from different rounds. Failed runs are left out of the
 * medians and counted in the "rounds ok" column; a ratio uses the rounds in which both ran.
 *
 * <p>"After" figures are the mean of the per-second samples after the first third of the measured
 * seconds (20 s of a 60-s run): past a fresh JVM's compilation and most of the load's compaction
 * backlog.
 */
public final class SeriesReport {
  /**
   * A column of both tables: its heading, its unit (the engine table's only: a ratio has none), the
   * figure of one run, and the decimals the engine table gives it.
   */
  private record Figure(String heading, String unit, ToDoubleFunction<RunResult> ofRun, int decimals) {}

  /** The figures each engine's row gives (median over rounds) and each ratio's (median of per-round ratios). */
  private static final List<Figure> FIGURES = List.of(
      new Figure("reads/s", "", RunResult::readOpsPerSecond, 0),
      new Figure("reads/s after", "", SeriesReport::readsAfter, 0),
      new Figure("scans/s", "", RunResult::scanOpsPerSecond, 0),
      new Figure("scans/s after", "", SeriesReport::scansAfter, 0),
      new Figure("read p99", " us", RunResult::readP99Micros, 1));
  /** The engine table's: {@link #FIGURES} and the hit ratio (a ratio of hit ratios says little). */
  private static final List<Figure> ENGINE_FIGURES = Stream.concat(FIGURES.stream(),
      Stream.of(new Figure("hit ratio mean", "", RunResult::hitRatioMean, 3))).toList();

  private SeriesReport() {}

  /**
   * @param rounds each round's results, in the order they ran
   * @param engines the engines as listed on the command line (the report's row order)
   */
  public static String render(List<List<RunResult>> rounds, List<String> engines) {
    StringBuilder sb = new StringBuilder("# Series of ").append(rounds.size()).append(" rounds\n\n");
    sb.append("Each round ran the whole comparison with the engine order rotated by one (`round-1/` to `round-")
        .append(rounds.size()).append("/`, each with its own report.md). Figures: median over the rounds")
        .append(" (smallest-largest round). A ratio is the median of the per-round ratios. \"After\": the mean of")
        .append(" the per-second samples after the first third of the measured seconds.\n\n");
    firstConfig(rounds).ifPresent(config ->
        sb.append("Configuration: `").append(Json.write(config).replace("\n", " ").replaceAll(" +", " ").trim())
            .append("`\n\n"));
    for (String workload : workloads(rounds)) {
      sb.append("## ").append(workload).append("\n\n");
      header(sb, List.of("engine", "rounds ok"), ENGINE_FIGURES, true);
      for (String engine : engines) {
        List<RunResult> runs = runsOf(rounds, engine, workload);
        if (runs.isEmpty()) {
          continue;
        }
        List<RunResult> ok = runs.stream().filter(RunResult::ok).toList();
        sb.append("| ").append(engine).append(" | ").append(ok.size()).append('/').append(runs.size());
        for (Figure f : ENGINE_FIGURES) {
          sb.append(" | ").append(spread(values(ok, f.ofRun()), f.decimals()));
        }
        sb.append(" |\n");
      }
      sb.append('\n');
      ratios(sb, rounds, engines, workload);
    }
    return sb.toString();
  }

  /** Each Cairn engine over each peer, and each later Cairn engine over the first one listed. */
  private static void ratios(StringBuilder sb, List<List<RunResult>> rounds, List<String> engines, String workload) {
    List<String> cairns = engines.stream().filter(Engines::isCairn).toList();
    List<String[]> pairs = new ArrayList<>();
    for (String c : cairns) {
      for (String p : engines) {
        if (!Engines.isCairn(p)) {
          pairs.add(new String[] {c, p});
        }
      }
    }
    for (String c : cairns.subList(Math.min(1, cairns.size()), cairns.size())) {
      pairs.add(new String[] {c, cairns.get(0)});
    }
    if (pairs.isEmpty()) {
      return;
    }
    header(sb, List.of("ratio", "rounds"), FIGURES, false);
    for (String[] pair : pairs) {
      List<RunResult[]> both = new ArrayList<>();
      for (List<RunResult> round : rounds) {
        Optional<RunResult> a = find(round, pair[0], workload);
        Optional<RunResult> b = find(round, pair[1], workload);
        if (a.isPresent() && b.isPresent() && a.get().ok() && b.get().ok()) {
          both.add(new RunResult[] {a.get(), b.get()});
        }
      }
      if (both.isEmpty()) {
        continue;
      }
      sb.append("| ").append(pair[0]).append(" / ").append(pair[1]).append(" | ").append(both.size());
      for (Figure f : FIGURES) {
        sb.append(" | ").append(spread(ratios(both, f.ofRun()), 2));
      }
      sb.append(" |\n");
    }
    sb.append('\n');
  }

  /** A table's heading row and rule: the {@code leading} columns, then one column a figure. */
  private static void header(StringBuilder sb, List<String> leading, List<Figure> figures, boolean withUnits) {
    for (String column : leading) {
      sb.append("| ").append(column).append(' ');
    }
    for (Figure f : figures) {
      sb.append("| ").append(f.heading()).append(withUnits ? f.unit() : "").append(' ');
    }
    sb.append("|\n").append("|---".repeat(leading.size() + figures.size())).append("|\n");
  }

  private static double[] ratios(List<RunResult[]> pairs, ToDoubleFunction<RunResult> metric) {
    return pairs.stream().mapToDouble(p -> metric.applyAsDouble(p[0]) / metric.applyAsDouble(p[1]))
        .filter(Double::isFinite).toArray();
  }

  static double readsAfter(RunResult r) {
    return meanAfterFirstThird(r, Sample::readsPerSecond);
  }

  static double scansAfter(RunResult r) {
    return meanAfterFirstThird(r, Sample::scansPerSecond);
  }

  private static double meanAfterFirstThird(RunResult r, ToDoubleFunction<Sample> metric) {
    double last = r.samples().stream().mapToDouble(Sample::elapsedSeconds).max().orElse(0);
    return r.samples().stream().filter(s -> s.elapsedSeconds() > last / 3).mapToDouble(metric)
        .filter(Double::isFinite).average().orElse(Double.NaN);
  }

  private static double[] values(List<RunResult> runs, ToDoubleFunction<RunResult> metric) {
    return runs.stream().mapToDouble(metric).filter(Double::isFinite).toArray();
  }

  /** "median (min-max)"; the value alone when every round gave the same; "n/a" for none. */
  static String spread(double[] values, int decimals) {
    if (values.length == 0) {
      return "n/a";
    }
    double[] sorted = values.clone();
    Arrays.sort(sorted);
    String median = MarkdownReport.f(median(sorted), decimals);
    if (sorted[0] == sorted[sorted.length - 1]) {
      return median;
    }
    return median + " (" + MarkdownReport.f(sorted[0], decimals) + "-"
        + MarkdownReport.f(sorted[sorted.length - 1], decimals) + ")";
  }

  /** The middle value of sorted values; the mean of the middle two for an even count. */
  static double median(double[] sorted) {
    int n = sorted.length;
    return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
  }

  private static List<RunResult> runsOf(List<List<RunResult>> rounds, String engine, String workload) {
    List<RunResult> runs = new ArrayList<>();
    for (List<RunResult> round : rounds) {
      find(round, engine, workload).ifPresent(runs::add);
    }
    return runs;
  }

  private static Optional<RunResult> find(List<RunResult> round, String engine, String workload) {
    return round.stream().filter(r -> r.engine().equals(engine) && r.workload().equals(workload)).findFirst();
  }

  private static Set<String> workloads(List<List<RunResult>> rounds) {
    Set<String> names = new LinkedHashSet<>();
    rounds.forEach(round -> round.forEach(r -> names.add(r.workload())));
    return names;
  }

  private static Optional<Map<String, Object>> firstConfig(List<List<RunResult>> rounds) {
    return rounds.stream().flatMap(List::stream).map(RunResult::config).filter(c -> c != null).findFirst();
  }
}
