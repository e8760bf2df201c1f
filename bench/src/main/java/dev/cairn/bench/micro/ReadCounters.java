package dev.cairn.bench.micro;

import dev.cairn.db.InFlightCalls;
import dev.cairn.db.base.LatencyRecorder;

/** For {@code ReadCountersBench}: the in-flight count and latency recorder a point read updates. */
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
