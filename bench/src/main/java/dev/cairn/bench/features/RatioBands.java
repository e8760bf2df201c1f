package dev.cairn.bench.features;

import dev.cairn.bench.report.SeriesAnalysis.Band;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Each engine's rate over {@code cairn}'s, round by round, and what the A/A control says those
 * ratios mean. A ratio is taken within a round (the same JVM, machine state and order of engines
 * around both) and the ratios banded over the rounds: median [smallest-largest].
 *
 * <p>The A/A band is {@code cairn-aa}'s ratio to {@code cairn}: two runs of one configuration. A
 * ratio is "no difference" when its band overlaps that band widened by its reciprocals ({@link
 * Band#noiseRange}, the series' rule: which twin is called the control is arbitrary, so a twin seen
 * at 0.95x says 1.05x is as likely noise). Otherwise the engine with the higher rate is named faster.
 */
final class RatioBands {
  static final String NO_DIFFERENCE = "no difference";

  /** A non-control engine's ratio to {@code cairn} in one phase, and its verdict. */
  record Comparison(String engine, Phase phase, Band ratio, String verdict) {}

  private RatioBands() {}

  /** {@code engine}'s rate over {@code cairn}'s in {@code phase}, one per round where both ran. */
  static double[] ratios(List<FeaturesRound> rounds, Phase phase, String engine) {
    List<Double> out = new ArrayList<>();
    for (FeaturesRound r : rounds) {
      Optional<EngineFigures> top = r.of(engine);
      Optional<EngineFigures> bottom = r.of(CounterEngines.CAIRN);
      if (top.isPresent() && bottom.isPresent()) {
        out.add(phase.of(top.get()).rate() / phase.of(bottom.get()).rate());
      }
    }
    return out.stream().mapToDouble(Double::doubleValue).toArray();
  }

  /** {@code engine}'s rates in {@code phase} over the rounds it ran. */
  static double[] rates(List<FeaturesRound> rounds, Phase phase, String engine) {
    return rounds.stream().flatMap(r -> r.of(engine).stream()).mapToDouble(phase.rate()).toArray();
  }

  /** The A/A band of {@code phase}: {@code cairn-aa}'s ratios to {@code cairn}; empty before a round. */
  static Optional<Band> aaBand(List<FeaturesRound> rounds, Phase phase) {
    return Band.of(ratios(rounds, phase, CounterEngines.CAIRN_AA));
  }

  /**
   * {@link #NO_DIFFERENCE} when {@code ratio} ({@code engine} over {@code cairn}) overlaps the
   * noise range of {@code aa}; else which of the two is faster.
   */
  static String verdict(String engine, Band ratio, Band aa) {
    return verdict(engine, ratio, aa, true, "faster");
  }

  /**
   * {@link #NO_DIFFERENCE} when {@code ratio} ({@code engine}'s figure over {@code cairn}'s)
   * overlaps the noise range of {@code aa}; else which of the two is {@code better} ("faster",
   * "smaller"): the higher figure's engine when {@code higherIsBetter} (a rate), the lower's when
   * not (a time, a size).
   */
  static String verdict(String engine, Band ratio, Band aa, boolean higherIsBetter, String better) {
    Band noise = aa.noiseRange();
    if (ratio.overlaps(noise)) {
      return NO_DIFFERENCE;
    }
    boolean engineHigher = ratio.min() > noise.max();
    return (engineHigher == higherIsBetter ? engine : CounterEngines.CAIRN) + " " + better;
  }

  /** Every engine but {@code cairn} and its twin against {@code cairn}, phase by phase. */
  static List<Comparison> comparisons(List<FeaturesRound> rounds) {
    List<Comparison> out = new ArrayList<>();
    for (Phase phase : Phase.values()) {
      Optional<Band> aa = aaBand(rounds, phase);
      for (String engine : CounterEngines.NAMES) {
        if (engine.equals(CounterEngines.CAIRN) || engine.equals(CounterEngines.CAIRN_AA)) {
          continue;
        }
        Optional<Band> ratio = Band.of(ratios(rounds, phase, engine));
        if (ratio.isPresent() && aa.isPresent()) {
          out.add(new Comparison(engine, phase, ratio.get(), verdict(engine, ratio.get(), aa.get())));
        }
      }
    }
    return out;
  }
}
