package dev.cairn.bench.features;

import java.util.function.Function;
import java.util.function.ToDoubleFunction;

/** The three timed phases, in the order an engine runs them, each with its figure and unit. */
enum Phase {
  /** Every increment as {@code merge(key, encode(delta))} into a fresh database. */
  MERGE("merge", "increments/s", EngineFigures::merge),
  /** Every counter read once with {@code get}, in key order, right after the merges. */
  READ_AFTER_MERGE("read-after-merge", "gets/s", EngineFigures::readAfterMerge),
  /** Every increment as get, add, put into a second fresh database. */
  RMW("rmw", "increments/s", EngineFigures::rmw);

  private final String label;
  private final String unit;
  private final Function<EngineFigures, PhaseFigures> figures;

  Phase(String label, String unit, Function<EngineFigures, PhaseFigures> figures) {
    this.label = label;
    this.unit = unit;
    this.figures = figures;
  }

  String label() {
    return label;
  }

  String unit() {
    return unit;
  }

  PhaseFigures of(EngineFigures f) {
    return figures.apply(f);
  }

  /** This phase's rate in an engine's figures. */
  ToDoubleFunction<EngineFigures> rate() {
    return f -> of(f).rate();
  }
}
