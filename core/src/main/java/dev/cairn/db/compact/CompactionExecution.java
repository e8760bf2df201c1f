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

  /** Requires: mutex held, the edit installed. Releases what the old version no longer needs. */
  default void afterInstall() {}
}
