package dev.cairn.bench.run;

import dev.cairn.bench.engine.BenchEngine;
import dev.cairn.bench.workload.Keys;
import dev.cairn.bench.workload.Ops;
import dev.cairn.bench.workload.Values;
import java.util.SplittableRandom;

/** One worker thread's view of the engine: each operation is timed and counted. Not shared. */
final class TimedOps implements Ops {
  private final BenchEngine engine;
  private final Values values;
  private final OpCounters counters;
  private final SplittableRandom valueRandom;

  TimedOps(BenchEngine engine, Values values, OpCounters counters, SplittableRandom valueRandom) {
    this.engine = engine;
    this.values = values;
    this.counters = counters;
    this.valueRandom = valueRandom;
  }

  @Override
  public void read(long id) {
    byte[] key = Keys.encode(id);
    long start = System.nanoTime();
    engine.get(key);
    counters.readLatency.recordValue(OpCounters.latencySince(start));
    counters.reads.increment();
  }

  @Override
  public void write(long id) {
    byte[] key = Keys.encode(id);
    byte[] value = values.next(valueRandom);
    long start = System.nanoTime();
    engine.put(key, value);
    counters.writeLatency.recordValue(OpCounters.latencySince(start));
    counters.writes.increment();
    counters.userBytesWritten.add(key.length + value.length);
  }

  @Override
  public void scan(long id, int limit) {
    engine.scan(Keys.encode(id), limit);
    counters.scans.increment();
  }
}
