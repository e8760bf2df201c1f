package dev.cairn.micrometer;

import dev.cairn.Cairn;
import dev.cairn.CairnException;
import dev.cairn.StatsAttributes;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.binder.MeterBinder;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A database's statistics as Micrometer gauges (docs/operations.md, "Metrics"): every numeric
 * figure of {@code Stats} under {@code cairn.} and its path, tagged {@code database=NAME}; a list
 * index in the path becomes a {@code level} tag ({@code levels.1.bytes} is {@code
 * cairn.levels.bytes{level="1"}}), so one meter covers every level.
 *
 * <pre>{@code
 * new CairnMetrics(db, "orders").bindTo(registry);
 * }</pre>
 *
 * A scrape reads one {@code Stats} for all the gauges (taken again when the last is older than
 * {@link #MAX_AGE_NANOS}), not one each. Counts since open (hits, bytes written, stall time) are
 * gauges that only grow: a backend's rate over them is the rate. A closed database's gauges read
 * NaN; {@link #close()} removes them from the registries (do so with the database: a database
 * reopened under the same name binds anew). The buffer's frozen levels (a list of level numbers)
 * and a level's own number are not exported: they are labels, not figures. On shared resources the
 * cache's size and eviction figures are the whole cache's under every database's tag.
 */
public final class CairnMetrics implements MeterBinder, AutoCloseable {
  /** How long one {@code Stats} serves the gauges: 1 second. */
  public static final long MAX_AGE_NANOS = 1_000_000_000L;

  private final Cairn db;
  private final String name;
  private final long maxAgeNanos;

  // Guarded by this.
  private Map<String, Object> figures;
  private long takenAt;
  private final List<Map.Entry<MeterRegistry, io.micrometer.core.instrument.Meter>> bound = new ArrayList<>();

  /** {@code name} tags every meter ({@code database}). */
  public CairnMetrics(Cairn db, String name) {
    this(db, name, MAX_AGE_NANOS);
  }

  /** As above, one {@code Stats} serving the gauges for {@code maxAgeNanos} (tests: 0). */
  CairnMetrics(Cairn db, String name, long maxAgeNanos) {
    if (db == null || name == null || name.isBlank()) {
      throw new IllegalArgumentException("a database and a non-blank name are required");
    }
    this.db = db;
    this.name = name;
    this.maxAgeNanos = maxAgeNanos;
  }

  @Override
  public void bindTo(MeterRegistry registry) {
    for (Map.Entry<String, Object> e : figures().entrySet()) {
      if (exported(e.getKey(), e.getValue())) {
        Meter meter = meterOf(e.getKey());
        String path = e.getKey();
        Gauge gauge = Gauge.builder(meter.name(), this, m -> m.value(path))
            .tags(Tags.of(meter.tags()).and("database", name))
            .strongReference(true) // the registry keeps the binder: nothing else need hold it
            .register(registry);
        synchronized (this) {
          bound.add(Map.entry(registry, gauge));
        }
      }
    }
  }

  /** Numbers and booleans, but not the ones that are labels: the frozen levels' numbers, a level's own number. */
  static boolean exported(String path, Object value) {
    boolean figure = value instanceof Number || value instanceof Boolean;
    return figure && !path.startsWith("buffer.frozenLevels.") && !path.matches("levels\\.\\d+\\.level");
  }

  /** Removes every gauge this binder registered. */
  @Override
  public synchronized void close() {
    for (Map.Entry<MeterRegistry, io.micrometer.core.instrument.Meter> b : bound) {
      b.getKey().remove(b.getValue());
    }
    bound.clear();
  }

  /** A figure's meter: its path without list indices, and the indices as {@code level} tags. */
  record Meter(String name, List<Tag> tags) {}

  static Meter meterOf(String path) {
    StringBuilder name = new StringBuilder("cairn");
    List<Tag> tags = new ArrayList<>();
    for (String part : path.split("\\.")) {
      if (!part.isEmpty() && part.chars().allMatch(Character::isDigit)) {
        tags.add(Tag.of("level", part));
      } else {
        name.append('.').append(part);
      }
    }
    return new Meter(name.toString(), tags);
  }

  private double value(String path) {
    Object v = figures().get(path);
    if (v instanceof Number n) {
      return n.doubleValue();
    }
    if (v instanceof Boolean b) {
      return b ? 1 : 0;
    }
    return Double.NaN;
  }

  private synchronized Map<String, Object> figures() {
    long now = System.nanoTime();
    if (figures == null || now - takenAt >= maxAgeNanos) {
      try {
        figures = StatsAttributes.flatten(db.stats());
      } catch (CairnException e) {
        figures = Map.of(); // closed, or failed: no figure rather than a stale one
      }
      takenAt = now;
    }
    return figures;
  }
}
