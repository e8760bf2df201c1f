package dev.cairn.bench.report;

import java.util.List;
import java.util.Map;

/**
 * A minimal JSON writer for summary.json: maps (in their iteration order), lists, strings,
 * numbers, booleans and null. NaN and infinities, which JSON cannot express, become null.
 */
public final class Json {
  private Json() {}

  public static String write(Object value) {
    StringBuilder sb = new StringBuilder();
    write(value, sb, 0);
    return sb.append('\n').toString();
  }

  private static void write(Object v, StringBuilder sb, int indent) {
    if (v == null) {
      sb.append("null");
    } else if (v instanceof String s) {
      string(s, sb);
    } else if (v instanceof Boolean b) {
      sb.append(b);
    } else if (v instanceof Double d) {
      sb.append(Double.isFinite(d) ? number(d) : "null");
    } else if (v instanceof Float f) {
      write(f.doubleValue(), sb, indent);
    } else if (v instanceof Number n) {
      sb.append(n.longValue());
    } else if (v instanceof Map<?, ?> m) {
      sb.append('{');
      boolean first = true;
      for (Map.Entry<?, ?> e : m.entrySet()) {
        sb.append(first ? "\n" : ",\n").append("  ".repeat(indent + 1));
        string(String.valueOf(e.getKey()), sb);
        sb.append(": ");
        write(e.getValue(), sb, indent + 1);
        first = false;
      }
      sb.append(first ? "}" : "\n" + "  ".repeat(indent) + "}");
    } else if (v instanceof List<?> l) {
      sb.append('[');
      for (int i = 0; i < l.size(); i++) {
        sb.append(i == 0 ? "\n" : ",\n").append("  ".repeat(indent + 1));
        write(l.get(i), sb, indent + 1);
      }
      sb.append(l.isEmpty() ? "]" : "\n" + "  ".repeat(indent) + "]");
    } else {
      string(v.toString(), sb);
    }
  }

  private static String number(double d) {
    return d == Math.rint(d) && Math.abs(d) < 1e15 ? Long.toString((long) d) : Double.toString(d);
  }

  private static void string(String s, StringBuilder sb) {
    sb.append('"');
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      switch (c) {
        case '"' -> sb.append("\\\"");
        case '\\' -> sb.append("\\\\");
        case '\n' -> sb.append("\\n");
        case '\r' -> sb.append("\\r");
        case '\t' -> sb.append("\\t");
        default -> {
          if (c < 0x20) {
            sb.append(String.format("\\u%04x", (int) c));
          } else {
            sb.append(c);
          }
        }
      }
    }
    sb.append('"');
  }
}
