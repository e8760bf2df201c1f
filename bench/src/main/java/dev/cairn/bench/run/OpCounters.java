package dev.cairn.bench.run;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;

/**
 * What the measured phase's threads count, shared by all of them: operation counts, user bytes
 * written, and latencies (each worker records into its own recorder, {@link ThreadLatencies},
 * and the sampler gathers each second's without stopping the workers). Latencies are in
 * nanoseconds.
 *
 * <p>The recorders have a fixed range, one nanosecond to {@link #MAX_LATENCY_NANOS}, not
 * HdrHistogram's auto-resizing one: every interval starts a new histogram, and an auto-resizing
 * one grew to each second's largest latency in steps, each under a lock the recording threads
 * wait on (a JFR recording caught readers parked there for 12-17 ms, which the read p99 then
 * counted: docs/results/issue21 {@code jfr-startup/}).
 */
final class OpCounters {
  /** The longest latency the recorders hold: one hour. Longer operations count as this. */
  static final long MAX_LATENCY_NANOS = TimeUnit.HOURS.toNanos(1);
  /** Significant digits of every latency histogram the runner keeps (the recorders and the totals). */
  static final int LATENCY_DIGITS = 3;

  final LongAdder reads = new LongAdder();
  final LongAdder writes = new LongAdder();
  final LongAdder scans = new LongAdder();
  final LongAdder userBytesWritten = new LongAdder();
  final ThreadLatencies readLatency = new ThreadLatencies();
  final ThreadLatencies writeLatency = new ThreadLatencies();

  /** The latency since {@code startNanos} as the recorders take it: within [1, {@link #MAX_LATENCY_NANOS}]. */
  static long latencySince(long startNanos) {
    return Math.min(Math.max(1, System.nanoTime() - startNanos), MAX_LATENCY_NANOS);
  }
}
