package dev.cairn.db;

import java.util.concurrent.atomic.LongAdder;

/** The engine's own counters (I/O bytes live in {@link dev.cairn.fs.IoStats}). Thread-safe. */
final class EngineCounters {
  final LongAdder userBytesWritten = new LongAdder();
  final LongAdder stallNanos = new LongAdder();
  final LongAdder slowdowns = new LongAdder();
  final LongAdder stops = new LongAdder();
  final LongAdder flushes = new LongAdder();
  final LongAdder compactions = new LongAdder();
  final LongAdder trivialMoves = new LongAdder();
  final LongAdder compactionNanos = new LongAdder();
  final LatencyRecorder getLatency = new LatencyRecorder();
  final LatencyRecorder putLatency = new LatencyRecorder();
  final LatencyRecorder scanLatency = new LatencyRecorder();

  void recordStall(long startNanos, boolean stop) {
    stallNanos.add(System.nanoTime() - startNanos);
    (stop ? stops : slowdowns).increment();
  }
}
