package dev.cairn.hbase;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Locale;
import java.util.function.Function;
import org.apache.hadoop.conf.Configuration;

/**
 * Parsing of the plugin's settings from a store's configuration: each refusal names the key and
 * what it must be, so a log line is enough to mend the table's {@code CONFIGURATION}.
 */
final class OptionValues {
  private OptionValues() {}

  /** The keys {@code conf} sets, for {@link #refuseUnknown}. */
  static List<String> keysOf(Configuration conf) {
    List<String> keys = new ArrayList<>();
    for (Map.Entry<String, String> e : conf) {
      keys.add(e.getKey());
    }
    return keys;
  }

  /** Refuses a key under {@code prefix} in {@code setKeys} that is not one of {@code known}. */
  static void refuseUnknown(String prefix, List<String> known, Iterable<String> setKeys) {
    for (String key : setKeys) {
      if (key.startsWith(prefix) && !known.contains(key)) {
        throw new IllegalArgumentException("unknown option " + key + "; known: " + String.join(", ", known));
      }
    }
  }

  static boolean bool(Function<String, String> get, String key, boolean fallback) {
    String v = get.apply(key);
    if (v == null) {
      return fallback;
    }
    switch (v.trim().toLowerCase(Locale.ROOT)) {
      case "true":
        return true;
      case "false":
        return false;
      default:
        throw new IllegalArgumentException(key + " must be true or false: '" + v + "'");
    }
  }

  static int integer(Function<String, String> get, String key, int fallback) {
    String v = get.apply(key);
    if (v == null) {
      return fallback;
    }
    try {
      return Integer.parseInt(v.trim());
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(key + " must be an integer: '" + v + "'");
    }
  }

  static double decimal(Function<String, String> get, String key, double fallback) {
    String v = get.apply(key);
    if (v == null) {
      return fallback;
    }
    try {
      return Double.parseDouble(v.trim());
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(key + " must be a number: '" + v + "'");
    }
  }

  static void range(String key, long value, long min, long max) {
    if (value < min || value > max) {
      throw new IllegalArgumentException(key + " must be in [" + min + ", " + max + "]: " + value);
    }
  }

  static void range(String key, double value, double min, double max) {
    if (!(value >= min && value <= max)) {
      throw new IllegalArgumentException(key + " must be in [" + min + ", " + max + "]: " + value);
    }
  }
}
