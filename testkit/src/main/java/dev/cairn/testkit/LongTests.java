package dev.cairn.testkit;

/**
 * The switch to the long variants of the tests: {@code -Dcairn.long=true} (the parent pom passes
 * it to every test JVM) turns the CI-sized runs of the randomized, soak and crash tests into their
 * long ones (docs/testing.md). One place reads it, so that every test means the same by it.
 */
public final class LongTests {
  private LongTests() {}

  /** Whether the long variants run. */
  public static boolean enabled() {
    return Boolean.getBoolean("cairn.long");
  }

  /** {@code ci} normally, {@code longRun} with the long variants. */
  public static int pick(int ci, int longRun) {
    return enabled() ? longRun : ci;
  }
}
