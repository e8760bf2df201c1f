package dev.cairn.bench.features;

import dev.cairn.bench.engine.EngineMetrics;
import dev.cairn.bench.engine.ProcessIo;
import dev.cairn.bench.run.DirectorySize;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * One method of the range-delete experiment on one engine in one round, on a fresh database:
 *
 * <ol>
 *   <li>{@code load}: every record in key order, in write batches of {@value RangeDeleteWorkload#BATCH},
 *       then a wait until the engine's background work is done ({@link RangeStore#busy}), so that
 *       the phases after it start from a settled database and their bytes written are theirs
 *       (timed and recorded, not compared), and a {@code System.gc()};
 *   <li>{@code delete}: the workload's deleted tenth by the method, timed;
 *   <li>{@code read-during}: right after, before any manual compaction, the workload's point reads
 *       (gets/s) and then its scans (scans/s), each checked: a deleted key returned, a live one
 *       missing, a wrong value or a scan that skips or ends early fails the run;
 *   <li>{@code flush}: the memtable flushed and the background work that causes waited for, as
 *       after the load; timed (to the wait's poll), with its bytes written, and the directory sized
 *       after it: the space the engine reclaims by itself, without a manual compaction;
 *   <li>{@code compact}: a full manual compaction, timed, the directory sized after;
 *   <li>a check of every {@value RangeDeleteWorkload#VERIFY_STRIDE}th record: the deleted ones
 *       absent, the others present with their value;
 *   <li>{@code drop}: on the compacted database, the wider {@link RangeDeleteWorkload#dropFrom
 *       [5%, 95%)} deleted by the method (a tenant dropped; per key, its keys still live), the
 *       memtable flushed and the background work waited for; timed (to the wait's poll), with its
 *       bytes written, the directory sized after it (what the engine reclaims by itself from a
 *       settled tree), and every {@value RangeDeleteWorkload#VERIFY_STRIDE}th record checked again.
 * </ol>
 *
 * Then the database is closed (timed) and its directory deleted.
 *
 * @param method how the tenth was deleted
 * @param load the load's puts ({@code ops} records), not counting the wait after it
 * @param settleSeconds the wait after the load until the engine had no background work
 * @param settled false if the wait gave up after {@value #SETTLE_LIMIT_SECONDS} s
 * @param delete the delete phase ({@code ops} the keys the range holds)
 * @param gets the point reads during
 * @param scans the scans during ({@code ops} scans)
 * @param scanEntries the entries the scans read in all
 * @param flush the flush after the reads and the wait for the background work it caused ({@code ops} 1)
 * @param flushSettled false if that wait gave up after {@value #SETTLE_LIMIT_SECONDS} s
 * @param sizeBeforeCompactBytes the directory after that wait, before the compaction
 * @param compact the compaction ({@code ops} 1)
 * @param sizeAfterCompactBytes the directory right after the compaction
 * @param drop the drop, its flush and the wait for the background work ({@code ops} the keys it deleted)
 * @param dropSettled false if that wait gave up after {@value #SETTLE_LIMIT_SECONDS} s
 * @param sizeAfterDropBytes the directory after the drop
 * @param closeSeconds the close's wall time
 */
record RangeRun(RangeMethod method, PhaseFigures load, double settleSeconds, boolean settled, PhaseFigures delete,
    PhaseFigures gets, PhaseFigures scans, long scanEntries, PhaseFigures flush, boolean flushSettled,
    long sizeBeforeCompactBytes, PhaseFigures compact, long sizeAfterCompactBytes, PhaseFigures drop,
    boolean dropSettled, long sizeAfterDropBytes, double closeSeconds) {

  static final int SETTLE_LIMIT_SECONDS = 300;
  private static final long SETTLE_POLL_MILLIS = 50;

  /** Opens a fresh database in a directory: the engine's, or a test's stand-in. */
  @FunctionalInterface
  interface Opener {
    RangeStore open(Path dir) throws IOException;
  }

  /**
   * Runs {@code method} on a fresh database in {@code dir} (emptied first, deleted at the end).
   *
   * @throws IllegalStateException naming the first wrong read if the database returned a deleted
   *     key, missed a live one or returned a wrong value
   */
  static RangeRun measure(String engine, RangeMethod method, Opener opener, Path dir, RangeDeleteWorkload w)
      throws IOException {
    DirectorySize.deleteRecursively(dir); // an interrupted run's
    // The previous run's garbage collected now, not inside this one's timed phases.
    System.gc();
    String who = engine + " (" + method.label() + ")";
    try {
      RangeStore db = opener.open(dir);
      RangeRun run;
      try {
        PhaseFigures load = load(db, w);
        long settleStart = System.nanoTime();
        boolean settled = settle(db);
        double settleSeconds = (System.nanoTime() - settleStart) / 1e9;
        // The load's garbage collected now, not inside the timed phases.
        System.gc();
        PhaseFigures delete = delete(db, w, method);
        Misreads misreads = new Misreads(who);
        PhaseFigures gets = gets(db, w, misreads);
        misreads.throwIfAny("read-during gets");
        ScanCheck check = new ScanCheck(w, misreads);
        PhaseFigures scans = scans(db, w, check);
        misreads.throwIfAny("read-during scans");
        long written = ProcessIo.bytesWritten();
        long start = System.nanoTime();
        db.flush();
        boolean flushSettled = settle(db);
        PhaseFigures flush = figures(1, start, written);
        long sizeBefore = DirectorySize.of(dir);
        written = ProcessIo.bytesWritten();
        start = System.nanoTime();
        db.compactAll();
        PhaseFigures compact = figures(1, start, written);
        long sizeAfter = DirectorySize.of(dir);
        verify(db, w, misreads, false);
        misreads.throwIfAny("the check after the compaction");
        written = ProcessIo.bytesWritten();
        start = System.nanoTime();
        long dropped = drop(db, w, method);
        db.flush();
        boolean dropSettled = settle(db);
        PhaseFigures drop = figures(dropped, start, written);
        long sizeAfterDrop = DirectorySize.of(dir);
        verify(db, w, misreads, true);
        misreads.throwIfAny("the check after the drop");
        run = new RangeRun(method, load, settleSeconds, settled, delete, gets, scans, check.entries, flush,
            flushSettled, sizeBefore, compact, sizeAfter, drop, dropSettled, sizeAfterDrop, 0);
      } catch (RuntimeException | Error e) {
        closeAfter(db, e);
        throw e;
      }
      long start = System.nanoTime();
      db.close();
      return run.withCloseSeconds((System.nanoTime() - start) / 1e9);
    } finally {
      DirectorySize.deleteRecursively(dir);
    }
  }

  private RangeRun withCloseSeconds(double seconds) {
    return new RangeRun(method, load, settleSeconds, settled, delete, gets, scans, scanEntries, flush,
        flushSettled, sizeBeforeCompactBytes, compact, sizeAfterCompactBytes, drop, dropSettled, sizeAfterDropBytes,
        seconds);
  }

  /** Closes {@code db} after {@code failure}, a failing close kept with it rather than in its place. */
  private static void closeAfter(RangeStore db, Throwable failure) {
    try {
      db.close();
    } catch (RuntimeException e) {
      failure.addSuppressed(e);
    }
  }

  private static PhaseFigures load(RangeStore db, RangeDeleteWorkload w) {
    byte[][] keys = new byte[RangeDeleteWorkload.BATCH][];
    byte[][] values = new byte[RangeDeleteWorkload.BATCH][];
    long written = ProcessIo.bytesWritten();
    long start = System.nanoTime();
    for (long first = 0; first < w.records(); first += RangeDeleteWorkload.BATCH) {
      int n = (int) Math.min(RangeDeleteWorkload.BATCH, w.records() - first);
      for (int i = 0; i < n; i++) {
        keys[i] = RangeDeleteWorkload.key(first + i);
        values[i] = w.value(first + i);
      }
      db.putBatch(keys, values, n);
    }
    return figures(w.records(), start, written);
  }

  /** Waits until two polls in a row find no background work; false if it gave up. */
  private static boolean settle(RangeStore db) {
    long deadline = System.nanoTime() + SETTLE_LIMIT_SECONDS * 1_000_000_000L;
    int quiet = 0;
    while (System.nanoTime() < deadline) {
      quiet = db.busy() ? 0 : quiet + 1;
      if (quiet == 2) {
        return true;
      }
      try {
        Thread.sleep(SETTLE_POLL_MILLIS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("interrupted while waiting for the load's background work", e);
      }
    }
    return false;
  }

  /** The deleted tenth by {@code method}; the keys of the per-key deletes made before the clock starts. */
  private static PhaseFigures delete(RangeStore db, RangeDeleteWorkload w, RangeMethod method) {
    long written;
    long start;
    if (method == RangeMethod.RANGE) {
      byte[] from = RangeDeleteWorkload.key(w.deleteFrom());
      byte[] to = RangeDeleteWorkload.key(w.deleteTo());
      written = ProcessIo.bytesWritten();
      start = System.nanoTime();
      db.deleteRange(from, to);
    } else {
      byte[][] keys = new byte[(int) w.deleted()][];
      for (int i = 0; i < keys.length; i++) {
        keys[i] = RangeDeleteWorkload.key(w.deleteFrom() + i);
      }
      byte[][] batch = new byte[RangeDeleteWorkload.BATCH][];
      written = ProcessIo.bytesWritten();
      start = System.nanoTime();
      for (int first = 0; first < keys.length; first += RangeDeleteWorkload.BATCH) {
        int n = Math.min(RangeDeleteWorkload.BATCH, keys.length - first);
        System.arraycopy(keys, first, batch, 0, n);
        db.deleteBatch(batch, n);
      }
    }
    return figures(w.deleted(), start, written);
  }

  /**
   * The drop by {@code method}: one range delete of [dropFrom, dropTo), or a delete of each of its
   * keys not deleted already, in batches; returns how many keys it deleted.
   */
  private static long drop(RangeStore db, RangeDeleteWorkload w, RangeMethod method) {
    if (method == RangeMethod.RANGE) {
      db.deleteRange(RangeDeleteWorkload.key(w.dropFrom()), RangeDeleteWorkload.key(w.dropTo()));
      return w.dropTo() - w.dropFrom() - w.deleted();
    }
    byte[][] batch = new byte[RangeDeleteWorkload.BATCH][];
    long deleted = 0;
    int n = 0;
    for (long i = w.dropFrom(); i < w.dropTo(); i++) {
      if (w.isDeleted(i)) {
        continue;
      }
      batch[n++] = RangeDeleteWorkload.key(i);
      if (n == batch.length) {
        db.deleteBatch(batch, n);
        deleted += n;
        n = 0;
      }
    }
    if (n > 0) {
      db.deleteBatch(batch, n);
      deleted += n;
    }
    return deleted;
  }

  /** The workload's point reads, each checked in place (a compare of 100 bytes beside each get). */
  private static PhaseFigures gets(RangeStore db, RangeDeleteWorkload w, Misreads misreads) {
    long written = ProcessIo.bytesWritten();
    long start = System.nanoTime();
    for (int j = 0; j < w.gets(); j++) {
      byte[] key = w.getKey(j);
      check(w, RangeDeleteWorkload.index(key), db.get(key), misreads);
    }
    return figures(w.gets(), start, written);
  }

  private static PhaseFigures scans(RangeStore db, RangeDeleteWorkload w, ScanCheck check) {
    long written = ProcessIo.bytesWritten();
    long start = System.nanoTime();
    for (int j = 0; j < w.scans(); j++) {
      byte[] from = w.scanKey(j);
      check.start(RangeDeleteWorkload.index(from));
      int n = db.scan(from, RangeDeleteWorkload.SCAN_LENGTH, check);
      check.end(n);
    }
    return figures(w.scans(), start, written);
  }

  /** Every {@value RangeDeleteWorkload#VERIFY_STRIDE}th record, untimed; {@code dropped}: after the drop. */
  private static void verify(RangeStore db, RangeDeleteWorkload w, Misreads misreads, boolean dropped) {
    for (long i = 0; i < w.records(); i += RangeDeleteWorkload.VERIFY_STRIDE) {
      check(dropped ? w.isGoneAfterDrop(i) : w.isDeleted(i), w, i, db.get(RangeDeleteWorkload.key(i)), misreads);
    }
  }

  private static void check(RangeDeleteWorkload w, long i, byte[] value, Misreads misreads) {
    check(w.isDeleted(i), w, i, value, misreads);
  }

  private static void check(boolean gone, RangeDeleteWorkload w, long i, byte[] value, Misreads misreads) {
    if (gone) {
      if (value != null) {
        misreads.add("deleted key " + name(i) + " returned a value");
      }
    } else if (value == null) {
      misreads.add("live key " + name(i) + " returned nothing");
    } else if (!w.isValueOf(i, value)) {
      misreads.add("live key " + name(i) + " returned a wrong value");
    }
  }

  static String name(long i) {
    return new String(RangeDeleteWorkload.key(i), StandardCharsets.US_ASCII);
  }

  private static PhaseFigures figures(long ops, long start, long writtenBefore) {
    double seconds = (System.nanoTime() - start) / 1e9;
    long writtenAfter = ProcessIo.bytesWritten();
    boolean counted = writtenBefore != EngineMetrics.UNAVAILABLE && writtenAfter != EngineMetrics.UNAVAILABLE;
    return new PhaseFigures(ops, seconds, counted ? writtenAfter - writtenBefore : EngineMetrics.UNAVAILABLE);
  }

  /** Wrong reads: how many, and the first in words. */
  static final class Misreads {
    private final String who;
    private long count;
    private String first;

    Misreads(String who) {
      this.who = who;
    }

    void add(String what) {
      if (count++ == 0) {
        first = what;
      }
    }

    /** Throws if any read was wrong, naming the phase, how many and the first. */
    void throwIfAny(String phase) {
      if (count > 0) {
        throw new IllegalStateException(String.format(Locale.ROOT, "%s: %s: %,d wrong reads; the first: %s", who,
            phase, count, first));
      }
    }
  }

  /**
   * Checks one scan at a time: each entry must be the next live record after the last (so no
   * deleted key and no skipped live one) with its value, and a scan shorter than {@value
   * RangeDeleteWorkload#SCAN_LENGTH} must have reached the last record.
   */
  static final class ScanCheck implements RangeStore.EntryVisitor {
    private final RangeDeleteWorkload w;
    private final Misreads misreads;
    private long from;
    private long expected;
    long entries;

    ScanCheck(RangeDeleteWorkload w, Misreads misreads) {
      this.w = w;
      this.misreads = misreads;
    }

    void start(long fromRecord) {
      from = fromRecord;
      expected = w.nextLive(fromRecord);
    }

    @Override
    public void entry(byte[] key, byte[] value) {
      entries++;
      long i = RangeDeleteWorkload.index(key);
      if (i != expected) {
        String got = i < 0 ? "a foreign key" : w.isDeleted(i) ? "deleted key " + name(i) : "key " + name(i);
        misreads.add("the scan from " + name(from) + " returned " + got + " where "
            + (expected < w.records() ? name(expected) : "the end") + " was due");
        // Go on from what it returned, so that one wrong entry counts once.
        expected = i < 0 ? expected : w.nextLive(i + 1);
        return;
      }
      if (!w.isValueOf(i, value)) {
        misreads.add("the scan from " + name(from) + " returned a wrong value for " + name(i));
      }
      expected = w.nextLive(i + 1);
    }

    void end(int read) {
      if (read < RangeDeleteWorkload.SCAN_LENGTH && expected < w.records()) {
        misreads.add("the scan from " + name(from) + " ended after " + read + " entries, before " + name(expected));
      }
    }
  }

  Map<String, Object> toJson() {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("method", method.label());
    m.put("load", load.toJson());
    m.put("settle_seconds", settleSeconds);
    m.put("settled", settled);
    m.put("delete", delete.toJson());
    m.put("gets", gets.toJson());
    m.put("scans", scans.toJson());
    m.put("scan_entries", scanEntries);
    m.put("flush", flush.toJson());
    m.put("flush_settled", flushSettled);
    m.put("size_before_compact_bytes", sizeBeforeCompactBytes);
    m.put("compact", compact.toJson());
    m.put("size_after_compact_bytes", sizeAfterCompactBytes);
    m.put("drop", drop.toJson());
    m.put("drop_settled", dropSettled);
    m.put("size_after_drop_bytes", sizeAfterDropBytes);
    m.put("close_seconds", closeSeconds);
    return m;
  }
}
