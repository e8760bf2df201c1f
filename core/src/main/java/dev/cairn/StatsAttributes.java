package dev.cairn;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.RecordComponent;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Every figure of a {@link Stats} as a flat map from its path to its value, the names JMX shows
 * ({@link StatsMBean}) and metrics libraries build theirs from (cairn-micrometer): each record component by its accessor's name, nested records joined by
 * dots ({@code writes.amplification}, {@code cache.hits}), list elements by their index
 * ({@code levels.1.bytes}, {@code reads.byLevel.0.answered}), enums by their name; numbers and
 * booleans as they are. Derived figures that are methods rather than components
 * ({@link Stats#totalTableBytes()}) are not included; their parts are.
 */
public final class StatsAttributes {
  private StatsAttributes() {}

  /** {@code stats} as paths and values, in the order of the record's components. */
  public static Map<String, Object> flatten(Stats stats) {
    Map<String, Object> out = new LinkedHashMap<>();
    add("", stats, out);
    return out;
  }

  private static void add(String path, Object value, Map<String, Object> out) {
    if (value == null) {
      return; // nothing to show (a figure not measured yet is NaN, not null)
    }
    if (value instanceof Record r) {
      for (RecordComponent c : r.getClass().getRecordComponents()) {
        add(path.isEmpty() ? c.getName() : path + "." + c.getName(), read(c, r), out);
      }
    } else if (value instanceof List<?> list) {
      for (int i = 0; i < list.size(); i++) {
        add(path + "." + i, list.get(i), out);
      }
    } else if (value instanceof Enum<?> e) {
      out.put(path, e.name());
    } else if (value instanceof Number || value instanceof Boolean || value instanceof String) {
      out.put(path, value);
    } else {
      out.put(path, value.toString());
    }
  }

  private static Object read(RecordComponent c, Record r) {
    try {
      return c.getAccessor().invoke(r);
    } catch (IllegalAccessException | InvocationTargetException e) {
      throw new IllegalStateException("reading " + r.getClass().getSimpleName() + "." + c.getName(), e);
    }
  }
}
