package dev.cairn.bench.workload;

import java.util.SplittableRandom;

/**
 * Draws a record id in {@code [0, n)} for one operation. Implementations hold only immutable
 * precomputed state, so one instance is shared by threads; each thread brings its own seeded
 * random source, which makes every thread's sequence reproducible from {@code --seed}.
 */
@FunctionalInterface
public interface KeyChooser {
  long next(SplittableRandom random);
}
