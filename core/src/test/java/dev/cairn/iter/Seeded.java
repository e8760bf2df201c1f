package dev.cairn.iter;

import java.util.Random;

/**
 * Seeds for randomized tests: {@code -Dcairn.seed=N} replays a run; otherwise a fresh seed. The
 * seed is part of every failure message (see {@link #run}).
 */
public final class Seeded {
  private Seeded() {}

  public interface Body {
    void run(Random random) throws Exception;
  }

  /** Runs {@code body} with a seeded Random and names the seed if it fails. */
  public static void run(String name, Body body) throws Exception {
    long seed = Long.getLong("cairn.seed", System.nanoTime());
    try {
      body.run(new Random(seed));
    } catch (AssertionError | RuntimeException e) {
      throw new AssertionError(
          name + " failed with seed " + seed + " (replay with -Dcairn.seed=" + seed + ")", e);
    }
  }
}
