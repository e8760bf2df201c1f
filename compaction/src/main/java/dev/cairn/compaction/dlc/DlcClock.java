package dev.cairn.compaction.dlc;

/**
 * The load model's time source, so that tests drive the model with a simulated clock. The
 * engine passes {@code System::nanoTime}.
 */
@FunctionalInterface
public interface DlcClock {
  /** A monotonic time in nanoseconds; only differences are meaningful. */
  long nanoTime();
}
