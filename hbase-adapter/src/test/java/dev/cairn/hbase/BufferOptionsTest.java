package dev.cairn.hbase;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import org.junit.jupiter.api.Test;

class BufferOptionsTest {
  private static BufferOptions read(Map<String, String> values) {
    return BufferOptions.read(values::get, values.keySet());
  }

  @Test
  void unsetKeysTakeTheDefaults() {
    BufferOptions o = read(Map.of("hbase.hstore.engine.class", "x"));
    assertEquals(BufferOptions.defaults(), o);
    assertTrue(o.enabled());
    assertEquals(10_000, o.trimConfig().intervalMillis());
    assertEquals(0.5, o.trimConfig().maxDilution());
  }

  @Test
  void setKeysAreRead() {
    BufferOptions o = read(Map.of(BufferOptions.ENABLED, "false", BufferOptions.TRIM_INTERVAL_MS, "500",
        BufferOptions.MIN_SERVED_SHARE, "0.9", BufferOptions.MAX_EXTRA_FRACTION, "2", BufferOptions.MAX_DILUTION, "0.5",
        BufferOptions.MAX_CHANGED_ROWS, "10", BufferOptions.MAX_HEAP_MB, "64", BufferOptions.WARM_HAND_OVER, "false"));
    assertFalse(o.enabled());
    assertEquals(new BufferOptions(false, 500, 0.9, 2.0, 0.5, 10, 64, false), o);
    assertEquals(64L << 20, o.maxHeapBytes());
  }

  @Test
  void aBadValueIsRefusedByName() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> read(Map.of(BufferOptions.TRIM_INTERVAL_MS, "50")));
    assertEquals("cairn.buffer.trim.interval.ms must be in [100, 3600000]: 50", e.getMessage());
    e = assertThrows(IllegalArgumentException.class, () -> read(Map.of(BufferOptions.MIN_SERVED_SHARE, "1.5")));
    assertEquals("cairn.buffer.min.served.share must be in [0.0, 1.0]: 1.5", e.getMessage());
    e = assertThrows(IllegalArgumentException.class, () -> read(Map.of(BufferOptions.MAX_DILUTION, "lots")));
    assertEquals("cairn.buffer.max.dilution must be a number: 'lots'", e.getMessage());
    e = assertThrows(IllegalArgumentException.class, () -> read(Map.of(BufferOptions.ENABLED, "yes")));
    assertEquals("cairn.buffer.enabled must be true or false: 'yes'", e.getMessage());
    e = assertThrows(IllegalArgumentException.class, () -> read(Map.of("cairn.buffer.trim.interval", "5")));
    assertTrue(e.getMessage().startsWith("unknown option cairn.buffer.trim.interval; known: "), e.getMessage());
  }
}
