package dev.cairn.e2e.stress;

/** The database broke a promise the crash test checks; the message says which and where. */
final class StressFailure extends RuntimeException {
  StressFailure(String message) {
    super(message);
  }
}
