package dev.cairn.bench.cli;

/** A command line the runner cannot accept; {@link dev.cairn.bench.BenchMain} exits with 2. */
public final class UsageException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  public UsageException(String message) {
    super(message);
  }
}
