package dev.cairn.bench.features;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * One engine's range-delete experiment in one round: each method ({@link RangeMethod}) on a fresh
 * database of its own ({@link RangeRun}), in the round's method order, each closed and deleted
 * before the next opens.
 *
 * @param engine the engine's name ({@link CounterEngines#NAMES})
 * @param position its place in the round's order, from 1
 * @param runs one per method, in the order they ran
 */
record RangeDeleteFigures(String engine, int position, List<RangeRun> runs) {
  RangeDeleteFigures {
    runs = List.copyOf(runs);
  }

  /**
   * Runs {@code engine}'s methods in {@code order}, each in a directory of its own under {@code dir}.
   *
   * @throws IllegalStateException if a database returned a deleted key, missed a live one or
   *     returned a wrong value
   */
  static RangeDeleteFigures measure(String engine, int position, Path dir, RangeDeleteWorkload w, long cacheBytes,
      List<RangeMethod> order, PrintStream progress) throws IOException {
    List<RangeRun> runs = new ArrayList<>();
    for (RangeMethod method : order) {
      RangeRun run = RangeRun.measure(engine, method, d -> RangeStore.open(engine, d, cacheBytes),
          dir.resolve(method.label()), w);
      progress.println(line(engine, run));
      runs.add(run);
    }
    return new RangeDeleteFigures(engine, position, runs);
  }

  /** This engine's run of {@code method}; throws if it did not run. */
  RangeRun of(RangeMethod method) {
    return runs.stream().filter(r -> r.method() == method).findFirst()
        .orElseThrow(() -> new IllegalArgumentException(engine + " did not run " + method.label()));
  }

  /** One progress line. */
  static String line(String engine, RangeRun r) {
    return String.format(Locale.ROOT, "features: range-delete: %s %s: load %.1f s (settled after %.1f s); delete "
            + "%.3f ms (%.1f MiB written); during: %,.0f gets/s, %,.0f scans/s; compact %.2f s (%.1f MiB written); "
            + "%.1f MiB before the compaction, %.1f MiB after", engine, r.method().label(), r.load().seconds(),
        r.settleSeconds(), r.delete().seconds() * 1e3, mib(r.delete().bytesWritten()), r.gets().rate(),
        r.scans().rate(), r.compact().seconds(), mib(r.compact().bytesWritten()), mib(r.sizeBeforeCompactBytes()),
        mib(r.sizeAfterCompactBytes()));
  }

  private static double mib(long bytes) {
    return bytes / 1048576.0;
  }

  Map<String, Object> toJson() {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("engine", engine);
    m.put("position", position);
    m.put("runs", runs.stream().map(RangeRun::toJson).toList());
    return m;
  }
}
