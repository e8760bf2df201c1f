package dev.cairn.db;

/**
 * For {@code ReadCountersBench}: the in-flight count and latency recorder a point read updates,
 * which are package-private in the engine (this class shares their package on the class path).
 */
public final class ReadCounters {
  private final InFlightCalls calls = new InFlightCalls("benchmark");
  private final LatencyRecorder latency = new LatencyRecorder();

  /** What a read does to them: enter, record its latency, exit. */
  public void oneRead(long micros) {
    calls.enter();
    try {
      latency.record(micros);
    } finally {
      calls.exit();
    }
  }
}
