package dev.cairn.bench.run;

import java.util.concurrent.atomic.LongAdder;
import org.HdrHistogram.Recorder;

/**
 * What the measured phase's threads count, shared by all of them: operation counts, user bytes
 * written, and latency recorders (HdrHistogram's {@link Recorder} hands the sampler each
 * second's histogram without stopping the writers). Latencies are in nanoseconds.
 */
final class OpCounters {
  final LongAdder reads = new LongAdder();
  final LongAdder writes = new LongAdder();
  final LongAdder scans = new LongAdder();
  final LongAdder userBytesWritten = new LongAdder();
  final Recorder readLatency = new Recorder(3);
  final Recorder writeLatency = new Recorder(3);
}
