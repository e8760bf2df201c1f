package dev.cairn;

/** Told after each table {@link Cairn#verifyChecksums(VerifyProgress)} has checked. */
@FunctionalInterface
public interface VerifyProgress {
  /**
   * @param done tables checked so far
   * @param total tables to check
   * @param bytes bytes of the tables checked so far
   */
  void tableVerified(int done, int total, long bytes);

  VerifyProgress NONE = (done, total, bytes) -> { };
}
