package dev.cairn.bench.features;

import java.util.function.ToDoubleFunction;

/**
 * The figures of the range-delete experiment that are compared across engines and methods, each
 * with its unit and which way is better: a rate higher, a time or a size lower.
 */
enum RangeFigure {
  /** The delete phase's wall time: the one range delete, or every batch of point deletes. */
  DELETE("delete", "ms", false, "faster", r -> r.delete().seconds() * 1e3),
  /** Uniform point reads over the whole key space right after the delete. */
  GETS("gets", "gets/s", true, "faster", r -> r.gets().rate()),
  /** Short scans from uniform keys right after the gets. */
  SCANS("scans", "scans/s", true, "faster", r -> r.scans().rate()),
  /**
   * The database directory's size after the delete's flush and the background work it caused,
   * before any manual compaction: what the engine reclaims by itself.
   */
  SIZE_FLUSHED("size after flush", "MiB", false, "smaller", r -> r.sizeBeforeCompactBytes() / (double) (1 << 20)),
  /**
   * The flush's and the full manual compaction's wall time together: an engine whose flush set off
   * compactions (Cairn's L0 reaches its trigger with the flush after its load) has done part of
   * the manual compaction's work by then.
   */
  COMPACT("flush + compact", "s", false, "faster", r -> r.flush().seconds() + r.compact().seconds()),
  /** The bytes the flush (and what it set off) and the full manual compaction wrote, together. */
  COMPACT_WRITTEN("flush + compact written", "MiB", false, "lighter", r -> r.flush().bytesWritten()
      == dev.cairn.bench.engine.EngineMetrics.UNAVAILABLE || r.compact().bytesWritten()
      == dev.cairn.bench.engine.EngineMetrics.UNAVAILABLE ? Double.NaN
      : (r.flush().bytesWritten() + r.compact().bytesWritten()) / (double) (1 << 20)),
  /** The database directory's size right after the compaction. */
  SIZE("size after compact", "MiB", false, "smaller", r -> r.sizeAfterCompactBytes() / (double) (1 << 20)),
  /**
   * The directory after the drop of [5%, 95%) from the compacted database, its flush and the
   * background work it caused: what the engine reclaims by itself from a settled tree.
   */
  SIZE_DROPPED("size after drop", "MiB", false, "smaller", r -> r.sizeAfterDropBytes() / (double) (1 << 20));

  private final String label;
  private final String unit;
  private final boolean higherIsBetter;
  private final String better;
  private final ToDoubleFunction<RangeRun> value;

  RangeFigure(String label, String unit, boolean higherIsBetter, String better, ToDoubleFunction<RangeRun> value) {
    this.label = label;
    this.unit = unit;
    this.higherIsBetter = higherIsBetter;
    this.better = better;
    this.value = value;
  }

  String label() {
    return label;
  }

  String unit() {
    return unit;
  }

  /** True for a rate, false for a time or a size. */
  boolean higherIsBetter() {
    return higherIsBetter;
  }

  /** What the better engine is called: "faster", "smaller" for a size, "lighter" for bytes written. */
  String better() {
    return better;
  }

  /** What a ratio of this figure compares, in words: the rate's unit, "bytes written", "size" or "time". */
  String noun() {
    return higherIsBetter ? unit : label.endsWith("written") ? "bytes written" : unit.equals("MiB") ? "size" : "time";
  }

  double of(RangeRun r) {
    return value.applyAsDouble(r);
  }
}
