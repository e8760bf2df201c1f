package dev.cairn.bench.features;

import dev.cairn.CounterOperator;
import dev.cairn.bench.engine.EngineMetrics;
import dev.cairn.bench.engine.ProcessIo;
import dev.cairn.bench.run.DirectorySize;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * One engine's phases in one round, each on a database of its own making:
 *
 * <ol>
 *   <li>{@code merge}: a fresh database, every increment as {@code merge(key, encode(delta))};
 *   <li>{@code read-after-merge}: on it, every counter read once with {@code get} in key order,
 *       right away, so that the reads merge whatever operands the compactions have not yet;
 *   <li>{@code rmw}: a second fresh database, every increment as {@code get}, add, {@code put}.
 * </ol>
 *
 * Both databases' values are checked against the workload's reference (the reads of phase 2 for the
 * first, a get of every counter after the timed loop for the second); a mismatch throws. Each
 * database is closed before the next opens, and both are deleted at the end.
 *
 * @param engine the engine's name ({@link CounterEngines#NAMES})
 * @param position its place in the round's order, from 1
 * @param mergeDatabaseBytes the merge database's directory size after phase 2, before its close
 * @param rmwDatabaseBytes the read-modify-write database's after phase 3, before its close
 * @param mergeCloseSeconds the merge database's close (work an engine leaves for it shows here)
 * @param rmwCloseSeconds the read-modify-write database's close
 */
record EngineFigures(String engine, int position, PhaseFigures merge, PhaseFigures readAfterMerge, PhaseFigures rmw,
    long mergeDatabaseBytes, long rmwDatabaseBytes, double mergeCloseSeconds, double rmwCloseSeconds) {

  /**
   * Runs {@code engine}'s three phases in {@code dir} (emptied first, deleted at the end).
   *
   * @throws IllegalStateException if a database's counters differ from the reference
   */
  static EngineFigures measure(String engine, int position, Path dir, CounterWorkload w, long cacheBytes,
      PrintStream progress) throws IOException {
    DirectorySize.deleteRecursively(dir); // an interrupted run's
    // The previous engine's garbage collected now, not inside this one's timed loops.
    System.gc();
    try {
      long[] values = new long[w.counterCount()];
      Path mergeDir = dir.resolve("merge");
      CounterStore db = CounterEngines.open(engine, mergeDir, cacheBytes);
      PhaseFigures merge;
      PhaseFigures read;
      long mergeBytes;
      try {
        merge = mergePhase(db, w);
        read = readPhase(db, w, values);
        mergeBytes = DirectorySize.of(mergeDir);
      } catch (RuntimeException | Error e) {
        closeAfter(db, e);
        throw e;
      }
      double mergeClose = timedClose(db);
      check(engine, "merge", w, values);

      Path rmwDir = dir.resolve("rmw");
      db = CounterEngines.open(engine, rmwDir, cacheBytes);
      PhaseFigures rmw;
      long rmwBytes;
      try {
        rmw = rmwPhase(db, w);
        rmwBytes = DirectorySize.of(rmwDir);
        for (int c = 0; c < w.counterCount(); c++) {
          values[c] = value(db.get(w.key(c)));
        }
      } catch (RuntimeException | Error e) {
        closeAfter(db, e);
        throw e;
      }
      double rmwClose = timedClose(db);
      check(engine, "rmw", w, values);
      EngineFigures f = new EngineFigures(engine, position, merge, read, rmw, mergeBytes, rmwBytes, mergeClose,
          rmwClose);
      progress.println(f.line());
      return f;
    } finally {
      DirectorySize.deleteRecursively(dir);
    }
  }

  private static double timedClose(CounterStore db) {
    long start = System.nanoTime();
    db.close();
    return (System.nanoTime() - start) / 1e9;
  }

  /** Closes {@code db} after {@code failure}, a failing close kept with it rather than in its place. */
  private static void closeAfter(CounterStore db, Throwable failure) {
    try {
      db.close();
    } catch (RuntimeException e) {
      failure.addSuppressed(e);
    }
  }

  private static PhaseFigures mergePhase(CounterStore db, CounterWorkload w) {
    long written = ProcessIo.bytesWritten();
    long start = System.nanoTime();
    for (int i = 0; i < w.increments(); i++) {
      db.merge(w.key(w.counter(i)), CounterOperator.encode(w.delta(i)));
    }
    return figures(w.increments(), start, written);
  }

  /** Every counter once, in key order, its value into {@code values} (the decode is a few ns of each get's time). */
  private static PhaseFigures readPhase(CounterStore db, CounterWorkload w, long[] values) {
    long written = ProcessIo.bytesWritten();
    long start = System.nanoTime();
    for (int c = 0; c < w.counterCount(); c++) {
      values[c] = value(db.get(w.key(c)));
    }
    return figures(w.counterCount(), start, written);
  }

  private static PhaseFigures rmwPhase(CounterStore db, CounterWorkload w) {
    long written = ProcessIo.bytesWritten();
    long start = System.nanoTime();
    for (int i = 0; i < w.increments(); i++) {
      byte[] key = w.key(w.counter(i));
      db.put(key, CounterOperator.encode(value(db.get(key)) + w.delta(i)));
    }
    return figures(w.increments(), start, written);
  }

  private static PhaseFigures figures(long ops, long start, long writtenBefore) {
    double seconds = (System.nanoTime() - start) / 1e9;
    long writtenAfter = ProcessIo.bytesWritten();
    boolean counted = writtenBefore != EngineMetrics.UNAVAILABLE && writtenAfter != EngineMetrics.UNAVAILABLE;
    return new PhaseFigures(ops, seconds, counted ? writtenAfter - writtenBefore : EngineMetrics.UNAVAILABLE);
  }

  /** A counter's value: absent counts from zero, as both engines' operators do. */
  private static long value(byte[] stored) {
    return stored == null ? 0 : CounterOperator.decode(stored);
  }

  /** Throws naming the first counter whose value is not the reference's, and how many differ. */
  static void check(String engine, String database, CounterWorkload w, long[] values) {
    int wrong = 0;
    int first = -1;
    for (int c = 0; c < w.counterCount(); c++) {
      if (values[c] != w.expected(c)) {
        wrong++;
        first = first < 0 ? c : first;
      }
    }
    if (wrong > 0) {
      throw new IllegalStateException(String.format(Locale.ROOT, "%s: the %s database's counters differ from the "
              + "reference: %,d of %,d, the first counter %d holds %d, expected %d", engine, database, wrong,
          w.counterCount(), first, values[first], w.expected(first)));
    }
  }

  /** One progress line. */
  String line() {
    return String.format(Locale.ROOT, "features: %s: merge %,.0f increments/s (%.1f MiB written); read-after-merge "
            + "%,.0f gets/s; rmw %,.0f increments/s (%.1f MiB written); databases %.1f and %.1f MiB",
        engine, merge.rate(), mib(merge.bytesWritten()), readAfterMerge.rate(), rmw.rate(), mib(rmw.bytesWritten()),
        mib(mergeDatabaseBytes), mib(rmwDatabaseBytes));
  }

  private static double mib(long bytes) {
    return bytes / 1048576.0;
  }

  Map<String, Object> toJson() {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("engine", engine);
    m.put("position", position);
    m.put("merge", merge.toJson());
    m.put("read_after_merge", readAfterMerge.toJson());
    m.put("rmw", rmw.toJson());
    m.put("merge_database_bytes", mergeDatabaseBytes);
    m.put("rmw_database_bytes", rmwDatabaseBytes);
    m.put("merge_close_seconds", mergeCloseSeconds);
    m.put("rmw_close_seconds", rmwCloseSeconds);
    return m;
  }
}
