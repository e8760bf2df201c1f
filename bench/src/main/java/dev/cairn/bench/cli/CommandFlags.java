package dev.cairn.bench.cli;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The flags of the small commands ({@code summarize}, {@code hiccups}): {@code --name value}
 * pairs, each of a command's own flags at most once. Also the integer conversions every command
 * shares with {@link Flags}. Every mistake is a {@link UsageException} that names it.
 */
public final class CommandFlags {
  private CommandFlags() {}

  /** {@code args} as flag to value, in the order given; {@code valid} lists the command's flags. */
  public static Map<String, String> parse(String command, String[] args, List<String> valid) {
    Map<String, String> values = new LinkedHashMap<>();
    for (int i = 0; i < args.length; i++) {
      String flag = args[i];
      if (!valid.contains(flag)) {
        throw new UsageException("unknown flag " + flag + " for " + command + " (valid: " + String.join(", ", valid)
            + ")");
      }
      if (i + 1 >= args.length) {
        throw new UsageException("flag " + flag + " needs a value");
      }
      if (values.put(flag, args[++i]) != null) {
        throw new UsageException("flag " + flag + " given twice");
      }
    }
    return values;
  }

  /** The integer given for {@code flag} ({@code _} allowed between digits), or {@code dflt}. */
  public static long longValue(Map<String, String> values, String flag, long dflt) {
    String v = values.get(flag);
    if (v == null) {
      return dflt;
    }
    try {
      return Long.parseLong(v.replace("_", ""));
    } catch (NumberFormatException e) {
      throw new UsageException("flag " + flag + " needs an integer, got '" + v + "'");
    }
  }

  /** {@link #longValue}, refused outside {@code [min, max]}. */
  public static long rangeLong(Map<String, String> values, String flag, long dflt, long min, long max) {
    long v = longValue(values, flag, dflt);
    if (v < min || v > max) {
      throw new UsageException("flag " + flag + " = " + v + " is out of range [" + min + ", " + max + "]");
    }
    return v;
  }
}
