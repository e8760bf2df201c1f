package dev.cairn.compaction.testing;

import static org.junit.jupiter.api.Assertions.fail;

import java.util.Random;

/**
 * The property tests' seed loop: {@code count} seeds from a random base, or the one given with
 * {@code -Dcairn.seed=S}; a failure names its seed so that it can be replayed.
 */
public final class Seeds {
  private Seeds() {}

  /** One case of a property test, run with its seed. */
  @FunctionalInterface
  public interface SeededCase {
    void run(long seed);
  }

  public static void forEach(int count, SeededCase body) {
    String fixed = System.getProperty("cairn.seed");
    long base = fixed != null ? Long.parseLong(fixed) : new Random().nextLong();
    int runs = fixed != null ? 1 : count;
    for (int i = 0; i < runs; i++) {
      long seed = base + i;
      try {
        body.run(seed);
      } catch (AssertionError | RuntimeException e) {
        fail("failed with -Dcairn.seed=" + seed + ": " + e.getMessage(), e);
      }
    }
  }
}
