package dev.cairn.micrometer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cairn.Cairn;
import dev.cairn.Options;
import dev.cairn.StatsAttributes;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Every numeric figure of a database's Stats reaches a Micrometer registry, levels as tags. */
class CairnMetricsTest {
  @TempDir Path dir;

  @Test
  void everyFigureIsAGaugeTaggedWithTheDatabaseAndItsLevel() {
    SimpleMeterRegistry registry = new SimpleMeterRegistry();
    Options options = Options.builder().memtableBytes(64 << 10).build();
    try (Cairn db = Cairn.open(dir.resolve("orders"), options); Cairn other = Cairn.open(dir.resolve("users"), options)) {
      new CairnMetrics(db, "orders", 0).bindTo(registry);
      new CairnMetrics(other, "users", 0).bindTo(registry);
      long numeric = StatsAttributes.flatten(db.stats()).entrySet().stream()
          .filter(e -> CairnMetrics.exported(e.getKey(), e.getValue())).count();
      assertEquals(numeric, registry.getMeters().stream().filter(m -> "orders".equals(m.getId().getTag("database"))).count(),
          "one gauge per numeric figure");

      for (int i = 0; i < 2000; i++) {
        db.put(("key" + i).getBytes(StandardCharsets.UTF_8), new byte[100]);
      }
      db.flush();
      Gauge written = registry.get("cairn.writes.userBytesWritten").tag("database", "orders").gauge();
      assertTrue(written.value() >= 2000 * 100, "bytes written: " + written.value());
      assertEquals(0, registry.get("cairn.writes.userBytesWritten").tag("database", "users").gauge().value());
      // The level-0 file count moves while compactions run: compared when it held still around the read.
      Gauge l0Files = registry.get("cairn.levels.files").tags("database", "orders", "level", "0").gauge();
      long deadline = System.nanoTime() + 30_000_000_000L;
      while (true) {
        long before = db.stats().levels().get(0).files();
        double read = l0Files.value();
        if (before == db.stats().levels().get(0).files()) {
          assertEquals(before, (long) read);
          break;
        }
        assertTrue(System.nanoTime() < deadline, "level 0 never held still for a read");
      }
    }
    assertTrue(Double.isNaN(registry.get("cairn.flush.count").tag("database", "users").gauge().value()),
        "a closed database's gauges read NaN");
  }

  @Test
  void closingTheBinderRemovesItsGaugesSoAReopenedDatabaseBindsAnew() {
    SimpleMeterRegistry registry = new SimpleMeterRegistry();
    Path db = dir.resolve("orders");
    for (int open = 0; open < 2; open++) {
      try (Cairn c = Cairn.open(db, Options.defaults()); CairnMetrics metrics = new CairnMetrics(c, "orders", 0)) {
        metrics.bindTo(registry);
        c.put(("k" + open).getBytes(StandardCharsets.UTF_8), new byte[10]);
        assertTrue(registry.get("cairn.writes.userBytesWritten").tag("database", "orders").gauge().value() > 0,
            "the gauges read the database open now (open " + open + ")");
      }
      assertTrue(registry.find("cairn.writes.userBytesWritten").gauges().isEmpty());
    }
    assertTrue(CairnMetrics.exported("cache.hits", 1L) && CairnMetrics.exported("buffer.bytesByLevel.2", 5L));
    assertTrue(!CairnMetrics.exported("buffer.frozenLevels.0", 3) && !CairnMetrics.exported("levels.2.level", 2)
        && !CairnMetrics.exported("dlc.load", "HIGH"));
  }

  @Test
  void listIndicesBecomeLevelTags() {
    CairnMetrics.Meter m = CairnMetrics.meterOf("reads.byLevel.3.answered");
    assertEquals("cairn.reads.byLevel.answered", m.name());
    assertEquals(List.of(Tag.of("level", "3")), m.tags());
    assertEquals(List.of(), CairnMetrics.meterOf("cache.hits").tags());
    assertThrows(IllegalArgumentException.class, () -> new CairnMetrics(null, "x"));
  }

  @Test
  void noTwoFiguresShareAMeter(@TempDir Path d) {
    try (Cairn db = Cairn.open(d, Options.defaults())) {
      Set<CairnMetrics.Meter> seen = new HashSet<>();
      for (String path : StatsAttributes.flatten(db.stats()).keySet()) {
        assertTrue(seen.add(CairnMetrics.meterOf(path)), "two figures would be one meter: " + path);
      }
    }
  }
}
