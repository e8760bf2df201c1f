package dev.cairn.bench.features;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * One round of {@code features}: every engine's figures in the order they ran.
 *
 * @param round the round's number, from 1
 */
record FeaturesRound(int round, List<EngineFigures> engines) {
  FeaturesRound {
    engines = List.copyOf(engines);
  }

  /** {@code engine}'s figures in this round, if it ran. */
  Optional<EngineFigures> of(String engine) {
    return engines.stream().filter(f -> f.engine().equals(engine)).findFirst();
  }

  Map<String, Object> toJson() {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("round", round);
    m.put("order", engines.stream().map(EngineFigures::engine).toList());
    m.put("engines", engines.stream().map(EngineFigures::toJson).toList());
    return m;
  }
}
