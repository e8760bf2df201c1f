package dev.cairn.bench.report;

import dev.cairn.bench.report.SeriesAnalysis.Band;
import dev.cairn.bench.report.SeriesAnalysis.Ratio;
import dev.cairn.bench.report.SeriesAnalysis.Verdict;
import dev.cairn.bench.report.SeriesAnalysis.WorkloadSeries;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * series.md and series.json of {@code compare --repeat N} (or of {@code series --out DIR}, from the
 * rounds' kept records): every figure as its median [smallest-largest] over the rounds, and every
 * ratio judged against the series' own noise.
 *
 * <p>The noise is the A/A control: an engine and its control twin ({@link Engines#controlOf}),
 * the same engine under two names, run in every round. Their per-round ratios span the band a ratio
 * can wander for no reason but the machine and the order the engines ran in (about +/-20% a round
 * on this project's two shared cores). Which twin is on top is arbitrary, so the noise is the A/A
 * band together with its reciprocals (a band of 0.80-0.95 judges as 0.80-1.25). A ratio whose band
 * over the rounds overlaps that range is "same" (no difference); one wholly above or below it is
 * "better" or "worse" for the engine on top,
 * as its figure reads ({@link Figure#higherIsBetter}). Without a control in the series no ratio is
 * decided ("undecided").
 *
 * <p>A ratio is the median of the per-round ratios, not the ratio of the medians: the two engines
 * of one round ran minutes apart on the same machine state. Failed runs are left out and counted in
 * the "rounds ok" column; a ratio uses the rounds in which both ran. Each figure of the whole run
 * sits beside its steady window ("after 1/3": the samples after the first third of the run).
 */
public final class SeriesReport {
  private SeriesReport() {}

  public static String render(List<List<RunFigures>> rounds, List<String> engines, Map<String, Object> config) {
    StringBuilder sb = new StringBuilder("# Series of ").append(rounds.size()).append(" rounds\n\n");
    sb.append("Each round ran the whole comparison in its own engine order (`round-1/` to `round-")
        .append(rounds.size()).append("/`, each with its own report.md; the orders are at the end). Each figure:")
        .append(" median [smallest-largest]")
        .append(" over the rounds; a ratio is the median of the per-round ratios. \"after 1/3\": the mean of the")
        .append(" per-second samples after the first third of the measured seconds, beside the whole run's figure.")
        .append(" A ratio's verdict, for the engine on top: \"same\" when its band overlaps the A/A control's band")
        .append(" taken both ways up (the band and its reciprocals: which twin is on top is arbitrary), that is no")
        .append(" difference; \"better\" or \"worse\" when it lies wholly beyond it.\n\n");
    if (config != null) {
      sb.append("Configuration: `").append(Json.write(config).replace("\n", " ").replaceAll(" +", " ").trim())
          .append("`\n\n");
    }
    sb.append(tables(rounds, engines, "## "));
    sb.append("## Engine order by round\n\n");
    for (int i = 0; i < rounds.size(); i++) {
      sb.append("- round ").append(i + 1).append(": ")
          .append(String.join(", ", rounds.get(i).stream().map(RunFigures::engine).distinct().toList())).append('\n');
    }
    return sb.toString();
  }

  /**
   * The tables of a series, each workload under a heading at {@code headingLevel} ("## "): the
   * engines' figures, then the A/A band and every ratio with its verdict, losses included.
   */
  public static String tables(List<List<RunFigures>> rounds, List<String> engines, String headingLevel) {
    StringBuilder sb = new StringBuilder();
    if (SeriesAnalysis.controlPair(engines).isEmpty()) {
      sb.append("**No A/A control in this series** (an engine and its control twin, such as cairn-table and")
          .append(" cairn-table-same): no ratio can be told from noise, so every verdict is \"undecided\".\n\n");
    }
    for (WorkloadSeries w : SeriesAnalysis.analyse(rounds, engines)) {
      sb.append(headingLevel).append(w.workload()).append("\n\n");
      List<Figure> figures = w.figures();
      header(sb, List.of("engine", "rounds ok"), figures, true);
      for (Map.Entry<String, Map<Figure, Band>> e : w.engines().entrySet()) {
        sb.append("| ").append(e.getKey()).append(" | ").append(w.roundsOk().get(e.getKey()));
        for (Figure f : figures) {
          Band b = e.getValue().get(f);
          sb.append(" | ").append(b == null ? "n/a" : b.render(f.decimals()));
        }
        sb.append(" |\n");
      }
      sb.append('\n');
      List<Figure> ratioFigures = figures.stream().filter(Figure::inRatios).toList();
      if (w.control().isEmpty() && w.ratios().isEmpty()) {
        continue;
      }
      header(sb, List.of("ratio", "rounds"), ratioFigures, false);
      w.control().ifPresent(c -> ratioRow(sb, "A/A band: " + c.top() + " / " + c.bottom(), c, ratioFigures, false));
      for (Ratio r : w.ratios()) {
        ratioRow(sb, r.top() + " / " + r.bottom(), r, ratioFigures, true);
      }
      sb.append('\n');
    }
    return sb.toString();
  }

  /**
   * One table of every ratio of a series, workload by workload, with its verdict against the A/A
   * band, losses as plainly as wins: the form the README quotes. Columns: {@code figures} that some
   * ratio has, reads standing for scans in a workload that only scans.
   */
  public static String ratioTable(List<List<RunFigures>> rounds, List<String> engines, List<Figure> figures) {
    List<WorkloadSeries> series = SeriesAnalysis.analyse(rounds, engines);
    List<Figure> columns = figures.stream().filter(f -> series.stream().anyMatch(w -> Stream.concat(
        w.control().stream(), w.ratios().stream()).anyMatch(r -> r.bands().containsKey(opsFigure(w, f))))).toList();
    StringBuilder sb = new StringBuilder();
    sb.append("| workload | ratio | rounds ");
    boolean writeOnly = series.stream().anyMatch(w -> w.figures().contains(Figure.WRITES));
    for (Figure f : columns) {
      String heading = f == Figure.READS ? (writeOnly ? "reads (scans, writes)/s" : "reads (scans)/s")
          : f == Figure.READS_AFTER ? "after 1/3" : f.heading();
      sb.append("| ").append(heading).append(' ');
    }
    sb.append("|\n").append("|---".repeat(3 + columns.size())).append("|\n");
    for (WorkloadSeries w : series) {
      List<Figure> own = columns.stream().map(f -> opsFigure(w, f)).toList();
      w.control().ifPresent(c -> {
        sb.append("| ").append(w.workload()).append(' ');
        ratioRow(sb, "A/A band: " + c.top() + " / " + c.bottom(), c, own, false);
      });
      for (Ratio r : w.ratios()) {
        sb.append("| ").append(w.workload()).append(' ');
        ratioRow(sb, r.top() + " / " + r.bottom(), r, own, true);
      }
    }
    return sb.toString();
  }

  /**
   * A setting chosen on one shape, reported on another in the same table: every ratio of the
   * first series beside the same ratio in each other series (another record count, cache and
   * memtable), each figure of {@code figures} once per series. A ratio a series lacks is "n/a".
   *
   * @param labels a short name for each series' shape, in the order of {@code series}
   */
  public static String shapesTable(List<String> labels, List<SeriesRecords> series, List<Figure> figures) {
    List<List<WorkloadSeries>> analysed = series.stream().map(s -> SeriesAnalysis.analyse(s.rounds(), s.engines())).toList();
    StringBuilder sb = new StringBuilder("| workload | ratio ");
    for (Figure f : figures) {
      for (String label : labels) {
        sb.append("| ").append(f.heading()).append(", ").append(label).append(' ');
      }
    }
    sb.append("|\n").append("|---".repeat(2 + figures.size() * labels.size())).append("|\n");
    for (WorkloadSeries first : analysed.get(0)) {
      List<String[]> rows = new ArrayList<>();
      first.control().ifPresent(c -> rows.add(new String[] {c.top(), c.bottom()}));
      first.ratios().forEach(r -> rows.add(new String[] {r.top(), r.bottom()}));
      for (String[] pair : rows) {
        boolean control = first.control().filter(c -> c.top().equals(pair[0])).isPresent();
        sb.append("| ").append(first.workload()).append(" | ").append(control ? "A/A band: " : "")
            .append(pair[0]).append(" / ").append(pair[1]);
        for (Figure f : figures) {
          for (List<WorkloadSeries> shape : analysed) {
            Optional<Ratio> r = shape.stream().filter(w -> w.workload().equals(first.workload())).findFirst()
                .flatMap(w -> Stream.concat(w.control().stream(), w.ratios().stream())
                    .filter(x -> x.top().equals(pair[0]) && x.bottom().equals(pair[1])).findFirst());
            Band b = r.map(x -> x.bands().get(f)).orElse(null);
            sb.append(" | ").append(b == null ? "n/a" : b.render(2)
                + (control ? "" : " " + r.get().verdicts().get(f).word()));
          }
        }
        sb.append(" |\n");
      }
    }
    return sb.toString();
  }

  /**
   * {@code f}, or its counterpart in a workload that does not read: scans in one that only scans,
   * writes in one that only writes (a load).
   */
  private static Figure opsFigure(WorkloadSeries w, Figure f) {
    if (w.figures().contains(Figure.READS) || (f != Figure.READS && f != Figure.READS_AFTER)) {
      return f;
    }
    if (w.figures().contains(Figure.SCANS)) {
      return f == Figure.READS ? Figure.SCANS : Figure.SCANS_AFTER;
    }
    return f == Figure.READS ? Figure.WRITES : f == Figure.READS_AFTER ? Figure.WRITES_AFTER : f;
  }

  /** series.json: the same analysis as data, for the summaries rendered from kept records. */
  public static Map<String, Object> json(List<List<RunFigures>> rounds, List<String> engines,
      Map<String, Object> config) {
    Map<String, Object> root = new LinkedHashMap<>();
    root.put("rounds", rounds.size());
    root.put("engines", engines);
    root.put("config", config);
    Map<String, Object> workloads = new LinkedHashMap<>();
    for (WorkloadSeries w : SeriesAnalysis.analyse(rounds, engines)) {
      Map<String, Object> m = new LinkedHashMap<>();
      Map<String, Object> perEngine = new LinkedHashMap<>();
      w.engines().forEach((engine, bands) -> {
        Map<String, Object> e = new LinkedHashMap<>();
        e.put("rounds_ok", w.roundsOk().get(engine));
        bands.forEach((f, b) -> e.put(f.key(), band(b, null)));
        perEngine.put(engine, e);
      });
      m.put("engines", perEngine);
      w.control().ifPresent(c -> m.put("control", ratioJson(c)));
      m.put("ratios", w.ratios().stream().map(SeriesReport::ratioJson).toList());
      workloads.put(w.workload(), m);
    }
    root.put("workloads", workloads);
    return root;
  }

  private static Map<String, Object> ratioJson(Ratio r) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("top", r.top());
    m.put("bottom", r.bottom());
    m.put("rounds", r.rounds());
    r.bands().forEach((f, b) -> m.put(f.key(), band(b, r.verdicts().get(f))));
    return m;
  }

  private static Map<String, Object> band(Band b, Verdict verdict) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("median", b.median());
    m.put("min", b.min());
    m.put("max", b.max());
    m.put("n", b.count());
    if (verdict != null) {
      m.put("verdict", verdict.word());
    }
    return m;
  }

  private static void ratioRow(StringBuilder sb, String label, Ratio r, List<Figure> figures, boolean verdicts) {
    sb.append("| ").append(label).append(" | ").append(r.rounds());
    for (Figure f : figures) {
      Band b = r.bands().get(f);
      sb.append(" | ");
      if (b == null) {
        sb.append("n/a");
        continue;
      }
      sb.append(b.render(2));
      if (verdicts) {
        sb.append(' ').append(r.verdicts().get(f).word());
      }
    }
    sb.append(" |\n");
  }

  private static void header(StringBuilder sb, List<String> leading, List<Figure> figures, boolean withUnits) {
    for (String column : leading) {
      sb.append("| ").append(column).append(' ');
    }
    for (Figure f : figures) {
      sb.append("| ").append(f.heading()).append(withUnits ? f.unit() : "").append(' ');
    }
    sb.append("|\n").append("|---".repeat(leading.size() + figures.size())).append("|\n");
  }

}
