package dev.cairn.bench.features;

import dev.cairn.bench.engine.EngineMetrics;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One timed phase of one engine in one round.
 *
 * @param ops the operations the phase ran (increments, gets, scans, records put, keys deleted; 1
 *     for a compaction)
 * @param seconds the phase's wall time, from its first operation to its last one's return
 * @param bytesWritten the process's bytes written to storage over the phase ({@code /proc/self/io}
 *     {@code write_bytes - cancelled_write_bytes}: the engine's log, flushes and compactions, and
 *     nothing else of note, as one engine runs at a time); {@link EngineMetrics#UNAVAILABLE} off Linux
 */
record PhaseFigures(long ops, double seconds, long bytesWritten) {
  /** Operations a second. */
  double rate() {
    return ops / seconds;
  }

  Map<String, Object> toJson() {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("ops", ops);
    m.put("seconds", seconds);
    m.put("ops_per_s", rate());
    m.put("bytes_written", bytesWritten);
    return m;
  }
}
