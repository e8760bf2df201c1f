package dev.cairn.bench.engine;

import java.nio.file.Path;
import java.util.List;

/**
 * One storage engine as the workload runner drives it. An engine is opened once per run, used
 * by several threads at once (every method but {@link #open} and {@link #close} must be
 * thread-safe) and closed at the end. Adding an engine is one class implementing this plus one
 * line in {@link Engines}.
 */
public interface BenchEngine extends AutoCloseable {
  /** Creates a fresh database in the empty directory {@code dir} with {@code settings}. */
  void open(Path dir, EngineSettings settings);

  void put(byte[] key, byte[] value);

  /** The value of {@code key}, or null when absent. */
  byte[] get(byte[] key);

  /** Reads up to {@code limit} entries from the first key {@code >= from}; returns how many. */
  int scan(byte[] from, int limit);

  /**
   * Reads up to {@code limit} entries backward from the last key {@code <= from}; returns how
   * many. Only engines whose iterators move backward have it.
   */
  default int scanBackward(byte[] from, int limit) {
    throw new UnsupportedOperationException(getClass().getSimpleName() + " has no backward scan in the runner");
  }

  /** Writes the memtable out, so that the data of the load phase sits in tables. */
  void flush();

  /** Cumulative counters since {@link #open}; a field the engine cannot report is unavailable. */
  EngineMetrics metrics();

  /**
   * Whether the engine has compaction work running or owed now (false when it has none), or
   * empty when it cannot tell: what a benchmark waits on before it measures a settled tree.
   */
  default java.util.Optional<Boolean> compactionsPending() {
    return java.util.Optional.empty();
  }

  /** Tables in level 0 now, or -1 when the engine cannot tell (timeseries.csv's {@code l0_files}). */
  default int l0Files() {
    return -1;
  }

  /**
   * The load class a load-aware compaction scheduler sees now ({@code HIGH}/{@code LOW}, DLC), or
   * empty when the engine has none (timeseries.csv's {@code load_class}).
   */
  default String loadClass() {
    return "";
  }

  /**
   * Cumulative bytes written into each level since {@link #open}, level 0 first: for level 0 the
   * flushes (memtable to table), for deeper levels the compaction output landing there. Empty
   * when the engine cannot tell (summary.json's {@code write_amplification_by_level} is then null).
   */
  default long[] bytesWrittenByLevel() {
    return new long[0];
  }

  /**
   * Bytes on disk held by a compaction buffer now (LSbM-tree's extra space: tables kept only to
   * serve reads), or NaN when the engine has none (timeseries.csv's {@code buffer_bytes}).
   */
  default double bufferBytes() {
    return Double.NaN;
  }

  /**
   * Seeks the simulated slow device ({@code --seek-delay-ms}) has charged since {@link #open}, or
   * {@link EngineMetrics#UNAVAILABLE} when the engine does not run on it.
   */
  default long simulatedSeeks() {
    return EngineMetrics.UNAVAILABLE;
  }

  /**
   * The common settings (as named in docs/benchmarks.md) this engine could not apply, each with
   * the reason, e.g. {@code "bloom-bits-per-key: leveldbjni exposes no filter policy"}. Valid
   * after {@link #open}.
   */
  List<String> unhonouredSettings();

  /** Releases the database; idempotent. */
  @Override
  void close();
}
