package dev.cairn.bench.features;

import dev.cairn.bench.report.SeriesAnalysis.Band;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The range-delete experiment's figures banded over the rounds: per engine and method, each method
 * against the other on one engine ({@code range / per-key}), and each engine against {@code cairn}
 * per method with the A/A band's verdict, as {@link RatioBands} does for the counters. Every ratio
 * is taken within a round and the ratios banded: median [smallest-largest].
 *
 * <p>Ratios are of the figure as reported, whichever way is better: an engine's delete time over
 * cairn's is below 1 when the engine deletes faster, its gets/s over cairn's above 1 when it reads
 * faster; the verdict says which ({@link RatioBands#verdict(String, Band, Band, boolean, String)}).
 */
final class RangeBands {
  /** A non-control engine's figure over {@code cairn}'s for one method, and its verdict. */
  record Comparison(String engine, RangeMethod method, RangeFigure figure, Band ratio, String verdict) {}

  private RangeBands() {}

  /** {@code engine}'s {@code figure} by {@code method} over the rounds it ran. */
  static double[] values(List<FeaturesRound> rounds, String engine, RangeMethod method, RangeFigure figure) {
    return rounds.stream().flatMap(r -> r.rangeDelete(engine).stream())
        .mapToDouble(f -> figure.of(f.of(method))).toArray();
  }

  /** {@code engine}'s {@code figure} by {@code range} over its own by {@code per-key}, one per round. */
  static double[] methodRatios(List<FeaturesRound> rounds, String engine, RangeFigure figure) {
    return rounds.stream().flatMap(r -> r.rangeDelete(engine).stream())
        .mapToDouble(f -> figure.of(f.of(RangeMethod.RANGE)) / figure.of(f.of(RangeMethod.PER_KEY))).toArray();
  }

  /** {@code engine}'s {@code figure} over {@code cairn}'s by {@code method}, one per round where both ran. */
  static double[] ratios(List<FeaturesRound> rounds, RangeMethod method, RangeFigure figure, String engine) {
    List<Double> out = new ArrayList<>();
    for (FeaturesRound r : rounds) {
      Optional<RangeDeleteFigures> top = r.rangeDelete(engine);
      Optional<RangeDeleteFigures> bottom = r.rangeDelete(CounterEngines.CAIRN);
      if (top.isPresent() && bottom.isPresent()) {
        out.add(figure.of(top.get().of(method)) / figure.of(bottom.get().of(method)));
      }
    }
    return out.stream().mapToDouble(Double::doubleValue).toArray();
  }

  /** The A/A band of {@code figure} by {@code method}: {@code cairn-aa}'s over {@code cairn}'s. */
  static Optional<Band> aaBand(List<FeaturesRound> rounds, RangeMethod method, RangeFigure figure) {
    return Band.of(ratios(rounds, method, figure, CounterEngines.CAIRN_AA));
  }

  /** Every engine but {@code cairn} and its twin against {@code cairn}, method by method and figure by figure. */
  static List<Comparison> comparisons(List<FeaturesRound> rounds) {
    List<Comparison> out = new ArrayList<>();
    for (RangeMethod method : RangeMethod.values()) {
      for (RangeFigure figure : RangeFigure.values()) {
        Optional<Band> aa = aaBand(rounds, method, figure);
        for (String engine : CounterEngines.NAMES) {
          if (engine.equals(CounterEngines.CAIRN) || engine.equals(CounterEngines.CAIRN_AA)) {
            continue;
          }
          Optional<Band> ratio = Band.of(ratios(rounds, method, figure, engine));
          if (ratio.isPresent() && aa.isPresent()) {
            out.add(new Comparison(engine, method, figure, ratio.get(), RatioBands.verdict(engine, ratio.get(),
                aa.get(), figure.higherIsBetter(), figure.better())));
          }
        }
      }
    }
    return out;
  }
}
