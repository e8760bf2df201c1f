package dev.cairn.bench.report;

import dev.cairn.bench.engine.Engines;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * A series' numbers, before any rendering ({@link SeriesReport} renders them): each engine's
 * figures as bands over the rounds, the A/A control's band, and every ratio with its verdict
 * against that band. The rules (which pairs, what a verdict means) are {@link SeriesReport}'s
 * class comment and docs/benchmarks.md, "Series".
 */
public final class SeriesAnalysis {
  /** A ratio's band against the A/A band, for the engine on top. */
  public enum Verdict {
    BETTER("better"), WORSE("worse"), SAME("same"), UNDECIDED("undecided");

    private final String word;

    Verdict(String word) {
      this.word = word;
    }

    public String word() {
      return word;
    }
  }

  /** Values over the rounds: their median, smallest and largest, and how many there were. */
  public record Band(double median, double min, double max, int count) {
    public static Optional<Band> of(double[] values) {
      double[] v = Arrays.stream(values).filter(Double::isFinite).sorted().toArray();
      if (v.length == 0) {
        return Optional.empty();
      }
      int n = v.length;
      double median = n % 2 == 1 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
      return Optional.of(new Band(median, v[0], v[n - 1], n));
    }

    public boolean overlaps(Band other) {
      return min <= other.max && other.min <= max;
    }

    /**
     * This A/A band with its reciprocals: the range of ratios two runs of one engine were seen to
     * differ by, whichever twin is on top. Which of the pair is called the control is arbitrary, so
     * a twin found 0.80x its engine says 1.25x is as likely noise as 0.80x.
     */
    public Band noiseRange() {
      return new Band(median, Math.min(min, 1 / max), Math.max(max, 1 / min), count);
    }

    public String render(int decimals) {
      String m = MarkdownReport.f(median, decimals);
      return min == max ? m : m + " [" + MarkdownReport.f(min, decimals) + "-" + MarkdownReport.f(max, decimals) + "]";
    }
  }

  /** {@code top / bottom} per figure over the rounds where both ran, each with its verdict. */
  public record Ratio(String top, String bottom, int rounds, Map<Figure, Band> bands, Map<Figure, Verdict> verdicts) {}

  /** One workload of a series: each engine's figures, the A/A band and the ratios. */
  public record WorkloadSeries(String workload, List<Figure> figures, Map<String, Map<Figure, Band>> engines,
      Map<String, String> roundsOk, Optional<Ratio> control, List<Ratio> ratios) {}

  private SeriesAnalysis() {}

  /**
   * @param rounds each round's runs, in the order the rounds ran
   * @param engines the engines as listed on the command line (the row order)
   */
  public static List<WorkloadSeries> analyse(List<List<RunFigures>> rounds, List<String> engines) {
    List<WorkloadSeries> out = new ArrayList<>();
    for (String workload : workloads(rounds)) {
      // A figure no run of the workload has (NaN) or that is 0 in every run (scans/s of a workload
      // without scans) gets no column; nor do writes/s where the workload reads or scans.
      List<Figure> present = Arrays.stream(Figure.values())
          .filter(f -> rounds.stream().flatMap(List::stream)
              .anyMatch(r -> r.workload().equals(workload) && r.ok() && Double.isFinite(r.get(f)) && r.get(f) != 0))
          .toList();
      boolean reads = present.contains(Figure.READS) || present.contains(Figure.SCANS);
      List<Figure> figures = present.stream().filter(f -> !(reads && f.onlyWithoutReads())).toList();
      Map<String, Map<Figure, Band>> perEngine = new LinkedHashMap<>();
      Map<String, String> roundsOk = new LinkedHashMap<>();
      for (String engine : engines) {
        List<RunFigures> runs = runsOf(rounds, engine, workload);
        if (runs.isEmpty()) {
          continue;
        }
        List<RunFigures> ok = runs.stream().filter(RunFigures::ok).toList();
        roundsOk.put(engine, ok.size() + "/" + runs.size());
        Map<Figure, Band> bands = new EnumMap<>(Figure.class);
        for (Figure f : figures) {
          Band.of(ok.stream().mapToDouble(r -> r.get(f)).toArray()).ifPresent(b -> bands.put(f, b));
        }
        perEngine.put(engine, bands);
      }
      Optional<Ratio> control = controlPair(engines)
          .map(pair -> ratio(rounds, workload, pair[0], pair[1], figures, Optional.empty()));
      List<Ratio> ratios = new ArrayList<>();
      for (String[] pair : pairs(engines)) {
        Ratio r = ratio(rounds, workload, pair[0], pair[1], figures, control);
        if (r.rounds() > 0) {
          ratios.add(r);
        }
      }
      out.add(new WorkloadSeries(workload, figures, perEngine, roundsOk, control.filter(c -> c.rounds() > 0), ratios));
    }
    return out;
  }


  /**
   * The ratio of {@code top} over {@code bottom} in every round where both ran, judged against
   * {@code control}'s bands (undecided without one).
   */
  static Ratio ratio(List<List<RunFigures>> rounds, String workload, String top, String bottom, List<Figure> figures,
      Optional<Ratio> control) {
    List<RunFigures[]> both = bothRan(rounds, workload, top, bottom);
    Map<Figure, Band> bands = new EnumMap<>(Figure.class);
    Map<Figure, Verdict> verdicts = new EnumMap<>(Figure.class);
    for (Figure f : figures) {
      if (!f.inRatios()) {
        continue;
      }
      Band.of(perRound(both, f)).ifPresent(b -> {
        bands.put(f, b);
        verdicts.put(f, verdict(b, f, control.map(c -> c.bands().get(f))));
      });
    }
    return new Ratio(top, bottom, both.size(), bands, verdicts);
  }

  /** {@code top / bottom}'s {@code f} in each round where both ran to their end, in round order. */
  static double[] perRound(List<List<RunFigures>> rounds, String workload, String top, String bottom, Figure f) {
    return perRound(bothRan(rounds, workload, top, bottom), f);
  }

  private static double[] perRound(List<RunFigures[]> both, Figure f) {
    return both.stream().mapToDouble(p -> p[0].get(f) / p[1].get(f)).toArray();
  }

  /** {top's run, bottom's run} of each round in which both ran to their end. */
  private static List<RunFigures[]> bothRan(List<List<RunFigures>> rounds, String workload, String top,
      String bottom) {
    List<RunFigures[]> both = new ArrayList<>();
    for (List<RunFigures> round : rounds) {
      Optional<RunFigures> a = find(round, top, workload);
      Optional<RunFigures> b = find(round, bottom, workload);
      if (a.isPresent() && b.isPresent() && a.get().ok() && b.get().ok()) {
        both.add(new RunFigures[] {a.get(), b.get()});
      }
    }
    return both;
  }

  /**
   * "same" when {@code ratio} overlaps the A/A band's noise range ({@link Band#noiseRange}), else
   * better or worse as {@code f} reads.
   */
  static Verdict verdict(Band ratio, Figure f, Optional<Band> controlBand) {
    if (controlBand.isEmpty()) {
      return Verdict.UNDECIDED;
    }
    Band aa = controlBand.get().noiseRange();
    if (ratio.overlaps(aa)) {
      return Verdict.SAME;
    }
    boolean higher = ratio.min() > aa.max();
    return higher == f.higherIsBetter() ? Verdict.BETTER : Verdict.WORSE;
  }

  /** The series' A/A control: {control twin, its engine}, the first listed. */
  static Optional<String[]> controlPair(List<String> engines) {
    for (String e : engines) {
      Optional<String> twin = Engines.controlOf(e);
      if (twin.isPresent() && engines.contains(twin.get())) {
        return Optional.of(new String[] {e, twin.get()});
      }
    }
    return Optional.empty();
  }

  /**
   * The Cairn engines of {@code engines} ({@link Engines#runsCairn}) that are measured, not
   * control twins, in their order.
   */
  static List<String> measuredCairns(Collection<String> engines) {
    return engines.stream().filter(e -> Engines.runsCairn(e) && Engines.controlOf(e).isEmpty()).toList();
  }

  /**
   * The ratios a series reports: each Cairn engine (a host with Cairn's plugin among them:
   * {@link Engines#runsCairn}) over each peer; each later Cairn engine over the first; each later
   * peer over the first (what a peer's tuning buys). Control twins only in the A/A band.
   */
  static List<String[]> pairs(List<String> engines) {
    List<String> cairns = measuredCairns(engines);
    List<String> peers = engines.stream()
        .filter(e -> Engines.controlOf(e).isEmpty() && !Engines.runsCairn(e))
        .toList();
    List<String[]> pairs = new ArrayList<>();
    for (String c : cairns) {
      for (String p : peers) {
        pairs.add(new String[] {c, p});
      }
    }
    for (String c : cairns.subList(Math.min(1, cairns.size()), cairns.size())) {
      pairs.add(new String[] {c, cairns.get(0)});
    }
    for (String p : peers.subList(Math.min(1, peers.size()), peers.size())) {
      pairs.add(new String[] {p, peers.get(0)});
    }
    return pairs;
  }

  private static List<RunFigures> runsOf(List<List<RunFigures>> rounds, String engine, String workload) {
    List<RunFigures> runs = new ArrayList<>();
    for (List<RunFigures> round : rounds) {
      find(round, engine, workload).ifPresent(runs::add);
    }
    return runs;
  }

  private static Optional<RunFigures> find(List<RunFigures> round, String engine, String workload) {
    return round.stream().filter(r -> r.engine().equals(engine) && r.workload().equals(workload)).findFirst();
  }

  private static Set<String> workloads(List<List<RunFigures>> rounds) {
    Set<String> names = new LinkedHashSet<>();
    rounds.forEach(round -> round.forEach(r -> names.add(r.workload())));
    return names;
  }
}
