package dev.cairn.bench.engine.node;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A system property holding {@code key=value,key=value}: how a server engine's table settings are
 * overridden or added from the runner's command line ({@code -Dcairn.hbase.configuration.dlc=...},
 * {@code -Dcairn.cassandra.options.cairn=...}).
 */
public final class KeyValueProperty {
  private KeyValueProperty() {}

  /**
   * The property's pairs in order; empty when it is unset or blank.
   *
   * @throws IllegalArgumentException naming the property and the item that is not {@code key=value}
   */
  public static Map<String, String> read(String property) {
    Map<String, String> pairs = new LinkedHashMap<>();
    String text = System.getProperty(property);
    if (text == null || text.isBlank()) {
      return pairs;
    }
    for (String kv : text.split(",")) {
      int eq = kv.indexOf('=');
      if (eq <= 0) {
        throw new IllegalArgumentException("-D" + property + ": '" + kv + "' is not key=value");
      }
      pairs.put(kv.substring(0, eq).trim(), kv.substring(eq + 1).trim());
    }
    return pairs;
  }
}
