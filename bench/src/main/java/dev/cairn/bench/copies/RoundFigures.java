package dev.cairn.bench.copies;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One round of {@code copies}: every compaction style's checkpoint and backup figures, then each
 * many-databases configuration's, in the order they ran.
 *
 * @param round the round's number, from 1
 */
record RoundFigures(int round, List<StyleFigures> styles, List<ManyFigures> many) {
  RoundFigures {
    styles = List.copyOf(styles);
    many = List.copyOf(many);
  }

  Map<String, Object> toJson() {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("round", round);
    m.put("styles", styles.stream().map(StyleFigures::toJson).toList());
    m.put("many_databases", many.stream().map(ManyFigures::toJson).toList());
    return m;
  }
}
