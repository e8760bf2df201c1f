package dev.cairn.db;

import dev.cairn.wal.WriteBatchRecords;
import dev.cairn.CorruptionException;
import dev.cairn.Options;
import dev.cairn.WriteBatch;
import dev.cairn.db.base.Engine;
import dev.cairn.db.write.FlushJob;
import dev.cairn.db.write.MemTableInserter;
import dev.cairn.fs.FileNames;
import dev.cairn.fs.ReadableFile;
import dev.cairn.memtable.MemTable;
import dev.cairn.table.TableOptions;
import dev.cairn.version.VersionEdit;
import dev.cairn.version.VersionSet;
import dev.cairn.wal.WalReplay;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * Brings a database back to its last durable state on open: replays the manifest (through
 * {@link VersionSet#recover()}), checks that every table it names is on disk
 * ({@link LiveFilesCheck}), then replays every write-ahead log not yet covered by a flushed
 * table, in log order, into memtables. A writable open writes them out as L0 tables
 * ({@link #recover}); a read-only open keeps them in memory ({@link #recoverInMemory}) and
 * writes nothing. The damaged-log policy is {@link dev.cairn.Options#walRecoveryMode()}
 * (docs/operations.md).
 */
final class Recovery {
  private static final System.Logger LOG = System.getLogger(Recovery.class.getName());

  private final Engine engine;
  private final TableOptions tableOptions;
  private long maxSequence;
  /** Last sequence of the record replayed last, across all logs; -1 before the first. */
  private long lastReplayed = -1;
  /** The manifest's last sequence: the first record replayed starts at most one past it. */
  private long manifestLastSequence;
  /**
   * POINT_IN_TIME stopped short of the logs' end (damage, a record after missing writes, a missing
   * oldest log): nothing from there on is replayed.
   */
  private boolean stoppedShort;
  private MemTable mem;
  /** What a full memtable becomes: an L0 table (writable open), or kept (read-only open). */
  private MemTableSink sink;

  private interface MemTableSink {
    void accept(MemTable full) throws IOException;
  }

  Recovery(Engine engine, TableOptions tableOptions) {
    this.engine = engine;
    this.tableOptions = tableOptions;
  }

  /**
   * Requires: mutex held. Fills {@code edit} with the L0 tables written from the logs; the caller
   * installs it together with the new log number.
   */
  void recover(VersionEdit edit) throws IOException {
    assert engine.mutex().isHeldByCurrentThread();
    VersionSet versions = engine.versions();
    if (versions.exists()) {
      // Before the log replay below writes any table, and before the open writes a manifest.
      recoverManifest();
    } else {
      versions.create(engine.options().ttl() != null ? VersionEdit.VALUES_WITH_WRITE_TIME : 0);
    }
    // No reads have been seen yet to adapt to: only a pinned ALWAYS caches the recovered blocks.
    boolean cacheBlocks = engine.options().flushCaching() == Options.FlushCaching.ALWAYS;
    sink = full -> FlushJob.flush(engine, tableOptions, full, edit, cacheBlocks);
    replayLogs();
  }

  /**
   * Requires: mutex held; a database exists. Recovers without writing anything: the manifest's
   * version, and the logs' writes in memtables, newest first.
   */
  List<MemTable> recoverInMemory() throws IOException {
    assert engine.mutex().isHeldByCurrentThread();
    recoverManifest();
    List<MemTable> kept = new ArrayList<>();
    sink = full -> {
      if (full.entries() > 0) {
        kept.add(0, full);
      }
    };
    replayLogs();
    return kept;
  }

  /**
   * The manifest's version, refused when its values are stored otherwise than the options say or
   * a table it names is missing: before anything is written.
   */
  private void recoverManifest() throws IOException {
    VersionSet versions = engine.versions();
    versions.recover();
    ValueFormatCheck.requireMatches(engine.dir(), engine.options(), versions.valueFormat());
    LiveFilesCheck.requirePresent(engine.fs(), engine.dir(), versions.current(),
        FileNames.manifest(versions.manifestFileNumber()));
  }

  /**
   * Whether {@code POINT_IN_TIME} recovered to a point short of the logs' end: a read-only view
   * beside a live owner may have met a log its owner deleted meanwhile, and opens again.
   */
  boolean stoppedShort() {
    return stoppedShort;
  }

  private void replayLogs() throws IOException {
    VersionSet versions = engine.versions();
    maxSequence = versions.lastSequence();
    manifestLastSequence = versions.lastSequence();
    List<Long> logs = new ArrayList<>();
    for (String name : engine.fs().list(engine.dir())) {
      FileNames.Parsed p = FileNames.parse(name);
      if (p.kind() == FileNames.Kind.LOG && p.number() >= versions.logNumber()) {
        logs.add(p.number());
      }
      // Mark every file's number used before replaying any log: a flush during replay allocates
      // table numbers, which must not collide with a later log's, nor with a file a crashed
      // process left numbered beyond what its manifest recorded (a table it was writing). The
      // obsolete-file collector deletes by name without the mutex, trusting that an obsolete
      // number stays obsolete, so a new table reusing a leftover's name could be deleted under
      // the version naming it (OrphanFileNumberTest).
      if (p.number() >= 0) {
        versions.markFileNumberUsed(p.number());
      }
    }
    logs.sort(null);
    checkOldestLogPresent(logs);
    for (long number : logs) {
      if (stoppedShort) {
        // POINT_IN_TIME: a later log holds writes made after the lost ones; applying them would
        // not be a point in time. The log becomes obsolete once the recovered state is installed.
        LOG.log(System.Logger.Level.WARNING, "recovery: skipping " + FileNames.log(number) + " after damage in an earlier log");
        continue;
      }
      WalReplay.ReplayResult result = replayLog(number);
      stoppedShort |= engine.options().walRecoveryMode() == Options.WalRecoveryMode.POINT_IN_TIME
          && result.droppedAnything();
      if (result.droppedAnything()) {
        LOG.log(System.Logger.Level.WARNING, "recovery: " + FileNames.log(number) + " damaged at offset " + result.firstCorruptionOffset()
            + ", " + result.bytesDropped() + " bytes dropped (mode " + engine.options().walRecoveryMode() + ")");
      }
    }
    versions.setLastSequence(maxSequence);
  }

  /**
   * The manifest's log number names the oldest log whose writes are in no table: it is created
   * (and its name synced) before any edit names it, and deleted only once an edit moved past it,
   * so it is on disk. Where it is not, the manifest lost its last edits (a damaged last record
   * reads as a torn tail), among them the flush that retired the log into a table no manifest now
   * names, or the log was deleted: replaying the logs after it would lose its writes silently.
   * The default modes refuse the open, naming the manifest; {@code POINT_IN_TIME} opens at the
   * manifest's state, replaying no log; {@code SKIP_ANY_CORRUPTED} replays the logs there are.
   * A copy's manifest (a checkpoint, a backup) names no log ({@link VersionSet#recover}).
   */
  private void checkOldestLogPresent(List<Long> logs) throws IOException {
    VersionSet versions = engine.versions();
    long oldest = versions.logNumber();
    if (oldest == 0 || logs.contains(oldest)) {
      return;
    }
    String manifest = FileNames.manifest(versions.manifestFileNumber());
    String missing = manifest + " names " + FileNames.log(oldest) + " as the oldest log with writes in no table,"
        + " and it is missing: the manifest lost its last edits (the flush that retired the log), or the log was"
        + " deleted; its writes are not in the database";
    onMissingWrites(manifest, engine.fs().size(engine.dir().resolve(manifest)), missing,
        "the manifest's state, replaying no log");
  }

  /**
   * Applies the recovery mode to writes found missing at {@code file}'s {@code offset}: the
   * default modes refuse the open, naming both, {@code POINT_IN_TIME} stops replaying there
   * (leaving the database at {@code pointInTime}), {@code SKIP_ANY_CORRUPTED} replays on.
   * Returns whether to replay on.
   */
  private boolean onMissingWrites(String file, long offset, String missing, String pointInTime) {
    switch (engine.options().walRecoveryMode()) {
      case POINT_IN_TIME -> {
        LOG.log(System.Logger.Level.WARNING, "recovery: " + file + " at offset " + offset + ": " + missing
            + "; recovering to " + pointInTime + " (mode POINT_IN_TIME)");
        stoppedShort = true;
        return false;
      }
      case SKIP_ANY_CORRUPTED -> {
        LOG.log(System.Logger.Level.WARNING, "recovery: " + file + " at offset " + offset + ": " + missing
            + "; replaying on (mode SKIP_ANY_CORRUPTED)");
        return true;
      }
      default -> throw new CorruptionException(file, offset, missing + ". Open with walRecoveryMode POINT_IN_TIME"
          + " to recover to " + pointInTime + ", or SKIP_ANY_CORRUPTED to replay on");
    }
  }

  private WalReplay.ReplayResult replayLog(long number) throws IOException {
    String name = FileNames.log(number);
    mem = new MemTable();
    WalReplay.ReplayResult result;
    try (ReadableFile file = engine.fs().openReadable(engine.dir().resolve(name))) {
      result = WalReplay.replay(file, name, engine.options().walRecoveryMode(), (record, offset) -> {
        if (stoppedShort || !follows(record, name, offset)) {
          return;
        }
        if (!mem.isEmpty() && record.length >= WriteBatchRecords.HEADER_BYTES
            && !mem.hasRoomFor(MemTable.bytesToAdd(record.length, WriteBatchRecords.countOf(record)))) {
          completeMemTable(); // as the write path switched before this record (MemTables.makeRoomForGroup)
        }
        MemTableInserter.insert(record, mem, name, offset);
        long last = WriteBatchRecords.sequenceOf(record) + WriteBatchRecords.countOf(record) - 1;
        lastReplayed = last;
        maxSequence = Math.max(maxSequence, last);
        if (mem.approximateBytes() > engine.options().memtableBytes()) {
          completeMemTable();
        }
      });
    }
    completeMemTable();
    return result;
  }

  /**
   * Whether to replay {@code record}. Group commit gives each record the sequences right after
   * the previous one's, in log order and across logs (a log is synced before the next one takes
   * a write: {@code MemTables.switchMemTable}), and the first log replayed starts at most one past
   * the manifest's last sequence (an edit that retires a log records a sequence at least its
   * last). So:
   *
   * <ul>
   *   <li>a record that does not start beyond the last one replayed (duplicated or misplaced, its
   *       checksum intact) is damage in every mode: inserting it would replace entries already in
   *       the memtable under the same sequences;
   *   <li>a record that starts past the next sequence follows lost writes: an earlier log lost
   *       its tail (cut at a record's start, which reads as a clean end) or a log is missing.
   *       Replaying it would give a state that is no point in time, holding later writes without
   *       earlier ones: {@code POINT_IN_TIME} stops there (the later records and logs are
   *       skipped), {@code SKIP_ANY_CORRUPTED} replays it, and the other modes fail the open
   *       with the record's file and offset.
   * </ul>
   */
  private boolean follows(byte[] record, String name, long offset) {
    if (record.length < 8) {
      return true; // too short to hold a sequence: the inserter reports it
    }
    long first = WriteBatchRecords.sequenceOf(record);
    if (lastReplayed >= 0 && first <= lastReplayed) {
      throw new CorruptionException(name, offset, "write batch at sequence " + first
          + " does not follow the previous record, which ended at sequence " + lastReplayed);
    }
    boolean gap = lastReplayed >= 0 ? first != lastReplayed + 1 : first > manifestLastSequence + 1;
    if (!gap) {
      return true;
    }
    String missing = "write batch at sequence " + first + " follows "
        + (lastReplayed >= 0 ? "sequence " + lastReplayed + ", where the previous record ended"
            : "the manifest's last sequence " + manifestLastSequence)
        + ": the writes between are missing (an earlier log lost its tail, or a log is missing)";
    return onMissingWrites(name, offset, missing, "the point before it");
  }

  private void completeMemTable() throws IOException {
    sink.accept(mem);
    mem = new MemTable();
  }
}
