package dev.cairn.util;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cairn.CairnIOException;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class TeardownTest {
  private final List<String> ran = new ArrayList<>();

  private Teardown.Step step(String name) {
    return () -> ran.add(name);
  }

  @Test
  void everyStepRunsAfterAFailureAndTheFirstFailureIsThrownWithTheLaterOnesSuppressed() {
    IllegalStateException first = new IllegalStateException("first");
    IOException second = new IOException("second");
    IllegalStateException thrown = assertThrows(IllegalStateException.class, () -> Teardown.runAll("closing",
        step("a"), () -> { throw first; }, step("b"), () -> { throw second; }, step("c")));
    assertSame(first, thrown);
    assertEquals(List.of("a", "b", "c"), ran);
    assertArrayEquals(new Throwable[] {second}, thrown.getSuppressed());
  }

  @Test
  void anIoFailureIsThrownAsACairnIoExceptionNamingTheTeardown() {
    CairnIOException thrown = assertThrows(CairnIOException.class,
        () -> Teardown.runAll("closing database /x", () -> { throw new IOException("disk gone"); }, step("a")));
    assertTrue(thrown.getMessage().startsWith("closing database /x"), thrown.getMessage());
    assertEquals(List.of("a"), ran);
  }

  @Test
  void afterAReportedFailureEveryStepRunsAndNothingIsThrown() {
    RuntimeException reported = new RuntimeException("open failed");
    Error stepFailure = new AssertionError("step");
    Teardown.runAllAfter(reported, step("a"), () -> { throw stepFailure; }, step("b"));
    assertEquals(List.of("a", "b"), ran);
    assertArrayEquals(new Throwable[] {stepFailure}, reported.getSuppressed());
  }

  @Test
  void stepsThatAllSucceedThrowNothing() {
    Teardown.runAll("closing", step("a"), step("b"));
    assertEquals(List.of("a", "b"), ran);
  }
}
