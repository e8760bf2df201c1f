package dev.cairn.bench.workload;

import java.util.SplittableRandom;

/** One thread's loop of a workload: the runner calls {@link #step} until the run ends. */
public interface Worker {
  /** A closed-loop worker issues its next operation as soon as the last one returns. */
  double CLOSED_LOOP = 0;

  /** Offered operations per second at {@code elapsedSeconds} into the run, or CLOSED_LOOP. */
  default double rate(double elapsedSeconds) {
    return CLOSED_LOOP;
  }

  /** Issues one operation (or one request of a few operations); false once it has no more. */
  boolean step(Ops ops, SplittableRandom random);

  /** A closed-loop worker that repeats {@code op} forever. */
  static Worker closed(java.util.function.BiConsumer<Ops, SplittableRandom> op) {
    return (ops, random) -> {
      op.accept(ops, random);
      return true;
    };
  }

  /** A worker that repeats {@code op} at {@code opsPerSecond} (token pacing by the runner). */
  static Worker paced(double opsPerSecond, java.util.function.BiConsumer<Ops, SplittableRandom> op) {
    return new Worker() {
      @Override
      public double rate(double elapsedSeconds) {
        return opsPerSecond;
      }

      @Override
      public boolean step(Ops ops, SplittableRandom random) {
        op.accept(ops, random);
        return true;
      }
    };
  }

  /** {@link #paced} for {@code seconds} from its first step, then done (a writer that stops). */
  static Worker pacedFor(double opsPerSecond, double seconds, java.util.function.BiConsumer<Ops, SplittableRandom> op) {
    return new Worker() {
      private long firstStepNanos = -1;

      @Override
      public double rate(double elapsedSeconds) {
        return opsPerSecond;
      }

      @Override
      public boolean step(Ops ops, SplittableRandom random) {
        long now = System.nanoTime();
        if (firstStepNanos < 0) {
          firstStepNanos = now;
        }
        if (now - firstStepNanos >= seconds * 1e9) {
          return false;
        }
        op.accept(ops, random);
        return true;
      }
    };
  }
}
