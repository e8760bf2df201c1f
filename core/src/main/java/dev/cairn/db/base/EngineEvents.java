package dev.cairn.db.base;

import dev.cairn.compaction.CompactionPlan;
import dev.cairn.model.FileDescriptor;
import dev.cairn.version.VersionEdit;
import java.lang.System.Logger.Level;
import java.util.Locale;

/**
 * One line per flush, compaction and write stop for an operator, through {@link System.Logger}
 * (logger {@value #LOGGER}), so the application's logging backend receives them. Flushes and
 * compactions are {@code DEBUG} (an embedded engine flushes often; an operator turns them on); a
 * stop of at least {@value #NOTICED_STOP_MILLIS} ms is {@code INFO}, a shorter one {@code DEBUG}.
 * Slowdowns (writes paced, not stopped) are counted in {@code Stats}, not logged: a pacing write
 * path would log every group. The lines are built by pure functions, tested without a logger.
 */
public final class EngineEvents {
  /** The logger's name: one for the whole engine, so one setting turns every line on or off. */
  public static final String LOGGER = "dev.cairn";
  /** A stop this long is one a client would notice, and is logged at INFO. */
  public static final long NOTICED_STOP_MILLIS = 100;

  private static final System.Logger LOG = System.getLogger(LOGGER);

  private final String database;

  public EngineEvents(String database) {
    this.database = database;
  }

  /**
   * At open: a database without a block cache ({@code blockCacheBytes} 0, allowed for tests and
   * measurements) reads every block from the file system, which an operator should hear of.
   */
  public void openedWithoutCache() {
    LOG.log(Level.WARNING, noCacheLine(database));
  }

  static String noCacheLine(String database) {
    return database + ": opened without a block cache (blockCacheBytes 0): every table block read goes to the"
        + " file system, index and filter blocks included";
  }

  public void flushed(VersionEdit edit, long nanos) {
    if (LOG.isLoggable(Level.DEBUG)) {
      LOG.log(Level.DEBUG, flushLine(database, edit, nanos));
    }
  }

  public void compacted(CompactionPlan plan, VersionEdit edit, long nanos) {
    if (LOG.isLoggable(Level.DEBUG)) {
      LOG.log(Level.DEBUG, compactionLine(database, plan, edit, nanos));
    }
  }

  /** A writer waited {@code nanos} in all for a stop that began for {@code cause} (not a slowdown). */
  public void stopped(EngineCounters.StallCause cause, long nanos) {
    Level level = stopLevel(nanos);
    if (LOG.isLoggable(level)) {
      LOG.log(level, stopLine(database, cause, nanos));
    }
  }

  static String flushLine(String database, VersionEdit edit, long nanos) {
    StringBuilder out = new StringBuilder(database).append(": flush");
    for (VersionEdit.NewFile f : edit.newFiles()) {
      out.append(String.format(Locale.ROOT, " -> L%d table %d (%s)", f.level(), f.file().number(),
          mib(f.file().totalBytes())));
    }
    return out.append(String.format(Locale.ROOT, " in %.1f ms", nanos / 1e6)).toString();
  }

  static String compactionLine(String database, CompactionPlan plan, VersionEdit edit, long nanos) {
    long inputBytes = 0;
    for (FileDescriptor f : plan.inputs()) {
      inputBytes += f.sizeBytes();
    }
    long targetBytes = 0;
    for (FileDescriptor f : plan.targets()) {
      targetBytes += f.sizeBytes();
    }
    long written = 0;
    for (VersionEdit.NewFile f : edit.newFiles()) {
      written += f.file().totalBytes();
    }
    return String.format(Locale.ROOT,
        "%s: %s L%d -> L%d, %d input file(s) (%s) and %d target(s) (%s), %d table(s) written (%s), in %.1f ms: %s",
        database, plan.kind().name().toLowerCase(Locale.ROOT).replace('_', ' '), plan.inputLevel(),
        plan.outputLevel(), plan.inputs().size(), mib(inputBytes), plan.targets().size(), mib(targetBytes),
        edit.newFiles().size(), mib(written), nanos / 1e6, plan.reason());
  }

  static Level stopLevel(long nanos) {
    return nanos >= NOTICED_STOP_MILLIS * 1_000_000 ? Level.INFO : Level.DEBUG;
  }

  static String stopLine(String database, EngineCounters.StallCause cause, long nanos) {
    String why = switch (cause) {
      case L0_STOP -> "L0 at its stop trigger";
      case MEMTABLE_STOP -> "no memtable free (flushes behind)";
      case SLOWDOWN -> throw new IllegalArgumentException("a slowdown paces writes, it does not stop them");
    };
    return String.format(Locale.ROOT, "%s: writes stopped for %.1f ms: %s", database, nanos / 1e6, why);
  }

  private static String mib(long bytes) {
    return String.format(Locale.ROOT, "%.2f MiB", bytes / 1048576.0);
  }
}
