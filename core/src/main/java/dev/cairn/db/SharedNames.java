package dev.cairn.db;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The names under a backup directory's {@code shared/} that a new copy must not take, indexed by
 * the table number and size they name ({@code N_CRC_SIZE.sst}, or a variant {@code
 * N_CRC_SIZE_V.sst}), so that finding a table's stored copies costs a lookup, not a pass over
 * every name: a backup of a tree of 17,000 tables asks 17,000 times.
 */
final class SharedNames {
  private final Set<String> taken = new HashSet<>();
  private final Map<String, List<String>> copiesByTable = new HashMap<>();

  /** Takes {@code name}; a name that is not a table copy's is taken and never offered as one. */
  void add(String name) {
    if (!taken.add(name)) {
      return;
    }
    String[] parts = name.endsWith(".sst") ? name.substring(0, name.length() - ".sst".length()).split("_") : new String[0];
    if (parts.length == 3 || parts.length == 4) {
      copiesByTable.computeIfAbsent(parts[0] + "_" + parts[2], k -> new ArrayList<>()).add(name);
    }
  }

  boolean isTaken(String name) {
    return taken.contains(name);
  }

  /** The names of copies of table {@code numberPart} ({@code 000017}) of {@code size} bytes, unvaried names first. */
  List<String> copiesOf(String numberPart, long size) {
    return copiesByTable.getOrDefault(numberPart + "_" + size, List.of()).stream()
        .sorted(Comparator.comparingInt(String::length).thenComparing(Comparator.naturalOrder()))
        .toList();
  }
}
