package dev.cairn.db.compact;

import dev.cairn.version.VersionEdit;
import java.io.IOException;
import java.util.List;

/**
 * One claimed plan being executed by a compaction style ({@link StyleRuntime#execution}).
 * {@link Compactions} drives it: {@link #run()} without the engine mutex, then, with the mutex
 * held, installs the edit, calls {@link #afterInstall()}, and finally releases {@link
 * #outputNumbers()} from the pending outputs whatever happened.
 */
public interface CompactionExecution {
  /** Does the I/O and returns the edit that installs the result. */
  VersionEdit run() throws IOException;

  /** File numbers this execution allocated (pending outputs until its edit is installed). */
  List<Long> outputNumbers();

  /**
   * The smallest sequence of a value the user's compaction filter removed or replaced in the
   * output, {@code Long.MAX_VALUE} if none. Where there is one, the output is not the merge of its
   * inputs (a compaction buffer must not keep the inputs to answer for it), and a snapshot taken
   * while the compaction ran, at or above this sequence, may see a value that the output changed.
   * Valid after {@link #run()}.
   */
  default long smallestFilteredSequence() {
    return Long.MAX_VALUE;
  }

  /** Requires: mutex held, the edit installed. Releases what the old version no longer needs. */
  default void afterInstall() {}
}
