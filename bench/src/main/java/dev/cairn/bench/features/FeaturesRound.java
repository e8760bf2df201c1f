package dev.cairn.bench.features;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * One round of {@code features}: every engine's figures of each experiment, in the order they ran
 * (empty for an experiment not run).
 *
 * @param round the round's number, from 1
 * @param engines the counter experiment's
 * @param rangeDeletes the range-delete experiment's
 */
record FeaturesRound(int round, List<EngineFigures> engines, List<RangeDeleteFigures> rangeDeletes) {
  FeaturesRound {
    engines = List.copyOf(engines);
    rangeDeletes = List.copyOf(rangeDeletes);
  }

  /** A round of the counter experiment alone. */
  FeaturesRound(int round, List<EngineFigures> engines) {
    this(round, engines, List.of());
  }

  /** {@code engine}'s counter figures in this round, if it ran. */
  Optional<EngineFigures> of(String engine) {
    return engines.stream().filter(f -> f.engine().equals(engine)).findFirst();
  }

  /** {@code engine}'s range-delete figures in this round, if it ran. */
  Optional<RangeDeleteFigures> rangeDelete(String engine) {
    return rangeDeletes.stream().filter(f -> f.engine().equals(engine)).findFirst();
  }

  Map<String, Object> toJson() {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("round", round);
    if (!engines.isEmpty()) {
      Map<String, Object> counter = new LinkedHashMap<>();
      counter.put("order", engines.stream().map(EngineFigures::engine).toList());
      counter.put("engines", engines.stream().map(EngineFigures::toJson).toList());
      m.put("counter", counter);
    }
    if (!rangeDeletes.isEmpty()) {
      Map<String, Object> range = new LinkedHashMap<>();
      range.put("order", rangeDeletes.stream().map(RangeDeleteFigures::engine).toList());
      range.put("engines", rangeDeletes.stream().map(RangeDeleteFigures::toJson).toList());
      m.put("range_delete", range);
    }
    return m;
  }
}
