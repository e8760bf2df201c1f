package dev.cairn.compaction;

import java.util.Locale;

/** Renders byte counts for plans, reasons and golden fixtures: "512B", "4KiB", "1.5MiB". */
public final class ByteSizes {
  public static final long KIB = 1L << 10;
  public static final long MIB = 1L << 20;
  public static final long GIB = 1L << 30;

  private ByteSizes() {}

  /** Exact multiples print as integers; anything else with one decimal of the largest unit. */
  public static String format(long bytes) {
    long abs = Math.abs(bytes);
    if (abs >= GIB) {
      return scaled(bytes, GIB, "GiB");
    }
    if (abs >= MIB) {
      return scaled(bytes, MIB, "MiB");
    }
    if (abs >= KIB) {
      return scaled(bytes, KIB, "KiB");
    }
    return bytes + "B";
  }

  private static String scaled(long bytes, long unit, String suffix) {
    if (bytes % unit == 0) {
      return (bytes / unit) + suffix;
    }
    return String.format(Locale.ROOT, "%.1f%s", (double) bytes / unit, suffix);
  }

  /** Parses what {@link #format} prints for exact values, e.g. "2MiB", "512KiB", "100B". */
  public static long parse(String text) {
    String t = text.trim();
    long unit = 1;
    String number = t;
    if (t.endsWith("GiB")) {
      unit = GIB;
      number = t.substring(0, t.length() - 3);
    } else if (t.endsWith("MiB")) {
      unit = MIB;
      number = t.substring(0, t.length() - 3);
    } else if (t.endsWith("KiB")) {
      unit = KIB;
      number = t.substring(0, t.length() - 3);
    } else if (t.endsWith("B")) {
      number = t.substring(0, t.length() - 1);
    }
    try {
      return Math.multiplyExact(Long.parseLong(number), unit);
    } catch (NumberFormatException | ArithmeticException e) {
      throw new IllegalArgumentException("not a byte size: " + text, e);
    }
  }
}
