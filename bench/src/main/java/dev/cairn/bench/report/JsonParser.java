package dev.cairn.bench.report;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A strict little JSON parser for the runner's own records (summary.json, series.json) and the
 * tests: objects become maps, arrays lists, numbers doubles, null null. Anything malformed throws
 * IllegalArgumentException naming the offset.
 */
public final class JsonParser {
  private final String s;
  private int pos;

  private JsonParser(String s) {
    this.s = s;
  }

  public static Object parse(String text) {
    JsonParser p = new JsonParser(text);
    Object v = p.value();
    p.ws();
    if (p.pos != text.length()) {
      throw p.error("trailing characters");
    }
    return v;
  }

  private Object value() {
    ws();
    if (pos >= s.length()) {
      throw error("unexpected end");
    }
    char c = s.charAt(pos);
    if (c == '{') {
      return object();
    } else if (c == '[') {
      return array();
    } else if (c == '"') {
      return string();
    } else if (s.startsWith("true", pos)) {
      pos += 4;
      return Boolean.TRUE;
    } else if (s.startsWith("false", pos)) {
      pos += 5;
      return Boolean.FALSE;
    } else if (s.startsWith("null", pos)) {
      pos += 4;
      return null;
    }
    int start = pos;
    while (pos < s.length() && "+-0123456789.eE".indexOf(s.charAt(pos)) >= 0) {
      pos++;
    }
    if (start == pos) {
      throw error("unexpected character '" + c + "'");
    }
    try {
      return Double.parseDouble(s.substring(start, pos));
    } catch (NumberFormatException e) {
      throw error("bad number");
    }
  }

  private Map<String, Object> object() {
    Map<String, Object> m = new LinkedHashMap<>();
    pos++;
    ws();
    if (peek() == '}') {
      pos++;
      return m;
    }
    while (true) {
      ws();
      String key = string();
      ws();
      expect(':');
      m.put(key, value());
      ws();
      if (peek() == ',') {
        pos++;
      } else {
        expect('}');
        return m;
      }
    }
  }

  private List<Object> array() {
    List<Object> l = new ArrayList<>();
    pos++;
    ws();
    if (peek() == ']') {
      pos++;
      return l;
    }
    while (true) {
      l.add(value());
      ws();
      if (peek() == ',') {
        pos++;
      } else {
        expect(']');
        return l;
      }
    }
  }

  private String string() {
    expect('"');
    StringBuilder sb = new StringBuilder();
    while (true) {
      if (pos >= s.length()) {
        throw error("unterminated string");
      }
      char c = s.charAt(pos++);
      if (c == '"') {
        return sb.toString();
      }
      if (c == '\\') {
        char e = s.charAt(pos++);
        switch (e) {
          case 'n' -> sb.append('\n');
          case 't' -> sb.append('\t');
          case 'r' -> sb.append('\r');
          case 'u' -> {
            sb.append((char) Integer.parseInt(s.substring(pos, pos + 4), 16));
            pos += 4;
          }
          default -> sb.append(e);
        }
      } else if (c < 0x20) {
        throw error("control character in string");
      } else {
        sb.append(c);
      }
    }
  }

  private char peek() {
    return pos < s.length() ? s.charAt(pos) : '\0';
  }

  private void expect(char c) {
    if (peek() != c) {
      throw error("expected '" + c + "'");
    }
    pos++;
  }

  private void ws() {
    while (pos < s.length() && Character.isWhitespace(s.charAt(pos))) {
      pos++;
    }
  }

  private IllegalArgumentException error(String what) {
    return new IllegalArgumentException(what + " at offset " + pos);
  }
}
