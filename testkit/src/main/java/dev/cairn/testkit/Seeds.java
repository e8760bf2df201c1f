package dev.cairn.testkit;

import java.util.Random;

/**
 * The seed of a randomized test: {@code -Dcairn.seed=S} replays a run, otherwise each run takes a
 * fresh one; whatever runs with it names it when it fails, so that the failure can be replayed.
 */
public final class Seeds {
  private Seeds() {}

  /** The seed of this run: {@code -Dcairn.seed} when given, else a fresh one. */
  public static long seed() {
    return Long.getLong("cairn.seed", System.nanoTime());
  }

  /** One case of a property test, run with its seed. */
  @FunctionalInterface
  public interface SeededCase {
    void run(long seed);
  }

  /** A randomized test body, given a {@link Random} of the run's seed. */
  @FunctionalInterface
  public interface Body {
    void run(Random random) throws Exception;
  }

  /**
   * A property test's seed loop: {@code count} seeds from a random base, or the one given with
   * {@code -Dcairn.seed=S}; a failure names its seed.
   */
  public static void forEach(int count, SeededCase body) {
    String fixed = System.getProperty("cairn.seed");
    long base = fixed != null ? Long.parseLong(fixed) : new Random().nextLong();
    int runs = fixed != null ? 1 : count;
    for (int i = 0; i < runs; i++) {
      long seed = base + i;
      try {
        body.run(seed);
      } catch (AssertionError | RuntimeException e) {
        throw new AssertionError("failed with -Dcairn.seed=" + seed + ": " + e.getMessage(), e);
      }
    }
  }

  /** Runs {@code body} with a Random of the run's seed, naming the seed if it fails. */
  public static void run(String name, Body body) throws Exception {
    long seed = seed();
    try {
      body.run(new Random(seed));
    } catch (AssertionError | RuntimeException e) {
      throw new AssertionError(name + " failed with seed " + seed + " (replay with -Dcairn.seed=" + seed + ")", e);
    }
  }
}
