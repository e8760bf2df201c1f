package dev.cairn.bench.run;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.SingleWriterRecorder;

/**
 * One kind of operation's latencies, recorded by several worker threads and gathered by one
 * sampler thread. Each worker records into a recorder of its own (HdrHistogram's
 * {@link SingleWriterRecorder}), so recording a latency writes no cache line another worker
 * writes. One recorder shared by the workers made every recording two contended atomic increments
 * of its phaser and one of the histogram's counts: 7% of cairn-table's reader samples in a JFR
 * recording of a zipfian run (docs/results/issue21 {@code jfr-table-vs-block/}), a cost every
 * engine paid per operation and the faster engine paid most often.
 *
 * <p>The recorders have a fixed range, one nanosecond to {@link OpCounters#MAX_LATENCY_NANOS}:
 * an auto-resizing histogram grows under a lock the recording thread waits on.
 */
final class ThreadLatencies {
  private final List<Writer> writers = new CopyOnWriteArrayList<>();
  /** The sum of the writers' last intervals; reset and refilled by each {@link #interval()}. */
  private final Histogram gathered = newHistogram();

  /** One worker's recorder and the interval histogram the sampler hands back to it. */
  private static final class Writer {
    final SingleWriterRecorder recorder =
        new SingleWriterRecorder(1, OpCounters.MAX_LATENCY_NANOS, OpCounters.LATENCY_DIGITS);
    /** Touched only by the sampler: a recorder takes back only histograms it handed out. */
    Histogram recycled;
  }

  /** A histogram of the recorders' range, for totals kept beside them. */
  static Histogram newHistogram() {
    return new Histogram(1, OpCounters.MAX_LATENCY_NANOS, OpCounters.LATENCY_DIGITS);
  }

  /**
   * A recorder for one worker: only one thread at a time may record into it (the worker that
   * owns it). Values must lie within [1, {@link OpCounters#MAX_LATENCY_NANOS}]
   * ({@link OpCounters#latencySince}).
   */
  SingleWriterRecorder newWriter() {
    Writer w = new Writer();
    writers.add(w);
    return w.recorder;
  }

  /**
   * Every writer's latencies since the previous call (or since it was made), added into one
   * histogram. The histogram is this object's own and is refilled by the next call: read it, or
   * add it into another, before then. Only one thread may call this.
   */
  Histogram interval() {
    gathered.reset();
    for (Writer w : writers) {
      w.recycled = w.recorder.getIntervalHistogram(w.recycled);
      gathered.add(w.recycled);
    }
    return gathered;
  }
}
