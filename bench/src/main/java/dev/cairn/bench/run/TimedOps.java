package dev.cairn.bench.run;

import dev.cairn.bench.engine.BenchEngine;
import dev.cairn.bench.workload.Keys;
import dev.cairn.bench.workload.Ops;
import dev.cairn.bench.workload.Values;
import java.util.SplittableRandom;
import org.HdrHistogram.SingleWriterRecorder;

/** One worker thread's view of the engine: each operation is timed and counted. Not shared. */
final class TimedOps implements Ops {
  private final BenchEngine engine;
  private final Values values;
  private final OpCounters counters;
  /** This worker's own recorders: recording touches nothing another worker writes. */
  private final SingleWriterRecorder readLatency;
  private final SingleWriterRecorder writeLatency;
  private final SplittableRandom valueRandom;
  private final int keyBytes;

  TimedOps(BenchEngine engine, Values values, OpCounters counters, SplittableRandom valueRandom, int keyBytes) {
    this.engine = engine;
    this.values = values;
    this.counters = counters;
    this.readLatency = counters.readLatency.newWriter();
    this.writeLatency = counters.writeLatency.newWriter();
    this.valueRandom = valueRandom;
    this.keyBytes = keyBytes;
  }

  @Override
  public void read(long id) {
    byte[] key = Keys.encode(id, keyBytes);
    long start = System.nanoTime();
    engine.get(key);
    readLatency.recordValue(OpCounters.latencySince(start));
    counters.reads.increment();
  }

  @Override
  public void write(long id) {
    byte[] key = Keys.encode(id, keyBytes);
    byte[] value = values.next(valueRandom);
    long start = System.nanoTime();
    engine.put(key, value);
    writeLatency.recordValue(OpCounters.latencySince(start));
    counters.writes.increment();
    counters.userBytesWritten.add(key.length + value.length);
  }

  @Override
  public void scan(long id, int limit) {
    engine.scan(Keys.encode(id, keyBytes), limit);
    counters.scans.increment();
  }
}
