package dev.cairn.db.compact;

import dev.cairn.db.base.Engine;
import dev.cairn.db.base.PeriodicTask;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;

/**
 * dLSM's aggressive compaction (section VI): once no write has arrived for {@link
 * dev.cairn.config.CompactionSettings#idleDrainMillis()}, the scheduler asks the picker to drain (compact every
 * level above the deepest one holding data down, whatever the sizes, {@link
 * dev.cairn.compaction.CompactionPicker#pickDraining}) at full speed; the first write seen ends it.
 * A tick a quarter of the idle time apart (at most a second) compares the bytes written with the
 * last tick's, so the drain starts within a quarter of the idle time of its due moment and stops
 * within a tick of the writes' return. While the database is busy writing, the ticks do nothing.
 */
final class IdleDrain {
  private final Engine engine;
  private final long idleNanos;
  private final LongSupplier clock;
  /** Set by {@link #start}, null while aggressive compaction is off. */
  private volatile PeriodicTask ticker;
  private volatile boolean draining;
  private final AtomicLong drains = new AtomicLong();
  // Touched by the tick thread only.
  private long bytesAtLastTick = -1;
  private long lastWriteSeenNanos;

  /** @param idleMillis 0 turns aggressive compaction off: {@link #draining()} stays false */
  IdleDrain(Engine engine, long idleMillis, LongSupplier clock) {
    this.engine = engine;
    this.idleNanos = TimeUnit.MILLISECONDS.toNanos(idleMillis);
    this.clock = clock;
  }

  void start() {
    if (idleNanos > 0) {
      long period = Math.max(1, Math.min(1000, TimeUnit.NANOSECONDS.toMillis(idleNanos) / 4));
      ticker = PeriodicTask.start(engine, "cairn-idle", period, this::tick);
    }
  }

  /** Stops the ticks and waits for one in progress. */
  void stop() {
    if (ticker != null) {
      ticker.stop(10_000);
    }
  }

  /** Whether the scheduler should drain the upper levels now. */
  boolean draining() {
    return draining;
  }

  /** How many times draining began since open. */
  long drains() {
    return drains.get();
  }

  /** One look at the writes: visible for tests, which call it with a scripted clock. */
  void tick() {
    long now = clock.getAsLong();
    long bytes = engine.counters().userBytesWritten().sum();
    if (bytes != bytesAtLastTick) {
      bytesAtLastTick = bytes;
      lastWriteSeenNanos = now;
      draining = false;
      return;
    }
    if (!draining && now - lastWriteSeenNanos >= idleNanos) {
      draining = true;
      drains.incrementAndGet();
      engine.mutex().lock();
      try {
        engine.background().maybeScheduleBackgroundWork();
      } finally {
        engine.mutex().unlock();
      }
    }
  }
}
