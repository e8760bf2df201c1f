package dev.cairn.bench.features;

import java.util.Arrays;
import java.util.List;

/** The two ways the range-delete experiment deletes its tenth of the key space. */
enum RangeMethod {
  /** One {@code deleteRange(from, toExclusive)} call: one range tombstone. */
  RANGE("range"),
  /**
   * One point delete per key, in write batches of {@value RangeDeleteWorkload#BATCH}: the fair way
   * to delete many keys one by one on either engine.
   */
  PER_KEY("per-key");

  private final String label;

  RangeMethod(String label) {
    this.label = label;
  }

  String label() {
    return label;
  }

  /**
   * The methods in the order round {@code round} (from 0) runs them on every engine: rotated as
   * the engines are ({@link CounterEngines#rotated}), so that neither method always runs on the
   * code and page cache the other warmed.
   */
  static List<RangeMethod> order(int round) {
    return CounterEngines.rotated(Arrays.asList(values()), round);
  }
}
