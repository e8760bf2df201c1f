package dev.cairn.version;

import dev.cairn.CorruptionException;
import dev.cairn.Options;
import dev.cairn.fs.FileNames;
import dev.cairn.fs.FileSystem;
import dev.cairn.key.InternalKey;
import dev.cairn.model.BufferRun;
import dev.cairn.wal.LogWriter;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Collections;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The database's versions and persistent counters, and the manifest that makes them durable
 * (docs/manifest_format.md).
 *
 * <p>Life cycle: {@link #create()} for a new database, or {@link #recover()} for an existing one
 * followed by {@link #startNewManifest()}; then {@link #logAndApply} per change; {@link #close()}.
 *
 * <p>Thread-safety. Mutations ({@code create}, {@code recover}, {@code startNewManifest}, {@code
 * logAndApply}, {@code prepare}, {@code install}, {@code setLastSequence}) require that the
 * caller holds the engine's mutex, which serialises them; {@link #write} of a pending edit runs
 * without it, and the caller keeps every other edit out until that edit is installed (one pending
 * edit at a time, checked). {@link #current()}, {@link #refCurrent()}, {@link #liveFileNumbers()}, the
 * counters' getters, {@link #newFileNumber()} and {@link #markFileNumberUsed} may be called from
 * any thread, and so may {@link Version#ref()}/{@link Version#unref()}: the set of live versions
 * has its own lock.
 */
public final class VersionSet implements AutoCloseable {
  // Immutable after construction.
  private final Path dir;
  private final FileSystem fs;

  // Atomic or volatile: read without the engine mutex.
  private final AtomicLong nextFileNumber = new AtomicLong(2);
  private volatile long lastSequence;
  /** Set at create or recover, never changed: {@link #valueFormat()}. */
  private int valueFormat;
  private volatile long logNumber;
  private volatile Version current;

  // Guarded by the engine mutex.
  private final byte[][] compactPointers = new byte[Options.MAX_LEVELS][];
  /**
   * The manifest being appended to; none is open until one is started (or after a failed write).
   * Between {@link #prepare} and {@link #install(PendingEdit)} it belongs to the pending edit's
   * writer, which writes it without the mutex; nothing else touches it then.
   */
  private final ManifestWriter manifest;
  /** The edit prepared and not yet installed or failed; at most one. */
  private volatile PendingEdit pending;

  /**
   * Files added by an edit whose manifest write or sync failed: the edit may be durable even
   * though it was not installed, so those files must not be deleted before a reopen decides.
   */
  private final Set<Long> possiblyLive = ConcurrentHashMap.newKeySet();

  // Guarded by liveLock.
  private final Object liveLock = new Object();
  private final Set<Version> liveVersions = Collections.newSetFromMap(new IdentityHashMap<>());
  private volatile Runnable versionReleasedListener = () -> { };
  private volatile Runnable versionInstalledListener = () -> { };

  public VersionSet(Path dir, FileSystem fs, Options options) {
    this.dir = Objects.requireNonNull(dir, "dir");
    this.fs = Objects.requireNonNull(fs, "fs");
    Objects.requireNonNull(options, "options");
    this.manifest = new ManifestWriter(dir, fs);
    install(Version.empty(this::released));
  }

  /** Whether a database exists here (CURRENT is present). */
  public boolean exists() {
    return fs.exists(dir.resolve(FileNames.CURRENT));
  }

  /**
   * Creates a new database: MANIFEST-000001 holding the format version and the initial counters,
   * synced, then CURRENT. The manifest stays open for {@link #logAndApply}. Requires: the engine
   * mutex; no database in the directory.
   */
  public void create() throws IOException {
    create(0);
  }

  /** {@link #create()} for a database whose values are stored as {@code valueFormat} says (0: as written). */
  public void create(int valueFormat) throws IOException {
    fs.createDirectories(dir);
    long number = FileNames.FIRST_MANIFEST_NUMBER;
    nextFileNumber.set(number + 1);
    logNumber = 0;
    lastSequence = 0;
    this.valueFormat = valueFormat;
    VersionEdit first = firstEdit(valueFormat)
        .setLogNumber(0)
        .setNextFileNumber(nextFileNumber.get())
        .setLastSequence(0);
    try {
      manifest.switchManifest(number, first, current);
    } catch (IOException | RuntimeException e) {
      // Unless CURRENT names it (the sync after the rename failed), a manifest left behind would
      // make the directory look like no database to the next open (DatabaseDirectory accepts it).
      try {
        if (!fs.exists(dir.resolve(FileNames.CURRENT))) {
          fs.delete(dir.resolve(FileNames.manifest(number)));
        }
      } catch (IOException suppressed) {
        e.addSuppressed(suppressed);
      }
      throw e;
    }
  }

  /**
   * A manifest's first edit, with its format version: 4 where values are stored as written, so that
   * an older Cairn reads the database, 5 with {@code VALUE_FORMAT} where they carry more.
   */
  static VersionEdit firstEdit(int valueFormat) {
    if (valueFormat == 0) {
      return new VersionEdit().setFormatVersion(VersionEditCodec.PLAIN_VALUES_FORMAT_VERSION);
    }
    return new VersionEdit().setFormatVersion(VersionEditCodec.CURRENT_FORMAT_VERSION).setValueFormat(valueFormat);
  }

  /** How the database stores values ({@link VersionEdit#valueFormat()}; 0: as written). */
  public int valueFormat() {
    return valueFormat;
  }

  /**
   * Recovers the state from the manifest CURRENT names. A torn last edit (a {@code logAndApply}
   * that never returned) is ignored; any other damage is corruption. Does not write anything and
   * leaves no manifest open: the next {@link #startNewManifest()} (or {@link #logAndApply}) starts
   * a fresh one. Requires: the engine mutex.
   *
   * @throws CorruptionException naming CURRENT or the manifest and the offset of the damage
   * @throws NewerFormatVersionException if a newer Cairn wrote the manifest
   */
  public void recover() throws IOException {
    long number = CurrentFile.read(fs, dir);
    ManifestReplay replay = ManifestReplay.replay(fs, dir.resolve(FileNames.manifest(number)));
    Version recovered = replay.builder().build(this::released, replay.logNumber(), replay.rangeDeletions());
    manifest.closeManifest(current);
    install(recovered);
    manifest.recovered(number);
    // A copy's manifest (a checkpoint, a backup) names the next file number as its log, which no
    // one wrote: none is needed, and a manifest written from this state (a repair's) names none.
    logNumber = replay.logNumber() >= replay.nextFileNumber() ? 0 : replay.logNumber();
    lastSequence = replay.lastSequence();
    valueFormat = replay.valueFormat();
    nextFileNumber.set(replay.nextFileNumber());
    markFileNumberUsed(number);
    markFileNumberUsed(replay.logNumber());
    for (long live : recovered.liveFileNumbers()) {
      markFileNumberUsed(live);
    }
    for (int level = 0; level < Options.MAX_LEVELS; level++) {
      for (BufferRun<FileMetaData> t : recovered.bufferRuns(level)) {
        markFileNumberUsed(t.id()); // table ids come from the file-number counter
      }
    }
    for (int level = 0; level < Options.MAX_LEVELS; level++) {
      compactPointers[level] = replay.compactPointers()[level];
    }
  }

  /**
   * Writes a new manifest whose first edit is a snapshot of the whole state, syncs it, and
   * switches CURRENT to it (temporary file, atomic rename, directory fsync). Deletes nothing:
   * the previous manifest becomes an obsolete file for the engine to delete. Requires: the
   * engine mutex.
   */
  public void startNewManifest() throws IOException {
    manifest.startNewManifest(this);
  }

  /**
   * The first edit of the manifest of a copy of this database at {@code v} (a checkpoint): this
   * set's last sequence and compaction pointers, {@code v}'s files, and no log, since the copy
   * holds none: its log number and next file number are {@code copyManifestNumber + 1}, past every
   * file of {@code v}. Requires: the engine mutex.
   */
  public VersionEdit copyEdit(Version v, long copyManifestNumber) {
    if (copyManifestNumber < nextFileNumber()) {
      throw new IllegalArgumentException("manifest " + copyManifestNumber + " of a copy would not be past every file number");
    }
    return ManifestWriter.snapshot(this, v, copyManifestNumber + 1, copyManifestNumber + 1);
  }

  /**
   * Writes {@code first} ({@link #copyEdit}) as manifest {@code number} of the copy in {@code
   * copyDir}, synced, and a CURRENT naming it. Does not sync the directory.
   */
  public static void writeCopyManifest(FileSystem fs, Path copyDir, long number, VersionEdit first) throws IOException {
    ManifestWriter.writeCopy(fs, copyDir, number, first);
  }

  /**
   * Appends {@code edit} to the manifest, syncs it, then installs the resulting version as
   * current: {@link #prepare}, {@link #write} and {@link #install(PendingEdit)} in one call, all
   * under the engine mutex (opening, recovery, repair). The running engine writes with the mutex
   * released instead (db.EditInstaller).
   *
   * @throws IllegalArgumentException if the edit does not fit the current version (a bug)
   */
  public void logAndApply(VersionEdit edit) throws IOException {
    PendingEdit p = prepare(edit);
    write(p);
    install(p);
  }

  /**
   * An edit {@link #prepare}d against the current version, its manifest record encoded, waiting
   * to be written and installed. While one is pending, nothing else may change the version set:
   * the current version, the counters the record carries and the compaction pointers stay as the
   * record says until {@link #install(PendingEdit)} (or a failed {@link #write}).
   */
  public static final class PendingEdit {
    private final VersionEdit edit;
    private final Version next;
    private final byte[] record;
    private boolean written;

    private PendingEdit(VersionEdit edit, Version next, byte[] record) {
      this.edit = edit;
      this.next = next;
      this.record = record;
    }
  }

  /**
   * Checks {@code edit} against the current version and builds the version it makes, fills in the
   * log number (if the edit has none), the next file number and the last sequence, as LevelDB
   * does, and encodes the manifest record. Starts a new manifest first if none is open (a fresh
   * open, or after a failed write). Requires: the engine mutex, and no edit pending.
   *
   * @throws IllegalArgumentException if the edit does not fit the current version (a bug)
   */
  public PendingEdit prepare(VersionEdit edit) throws IOException {
    if (pending != null) {
      throw new IllegalStateException("an edit is already pending: installs must be serialised");
    }
    if (edit.hasFormatVersion()) {
      throw new IllegalArgumentException("only a manifest's first edit carries the format version");
    }
    if (edit.hasLogNumber() && (edit.logNumber() < logNumber || edit.logNumber() >= nextFileNumber.get())) {
      throw new IllegalArgumentException("edit's log number " + edit.logNumber() + " is outside ["
          + logNumber + ", " + nextFileNumber.get() + ")");
    }
    VersionBuilder builder = new VersionBuilder(current);
    builder.apply(edit, IllegalArgumentException::new);
    Version next = builder.build(this::released, edit.hasLogNumber() ? edit.logNumber() : logNumber,
        current.mayHoldRangeTombstones() || edit.marksRangeDeletions());
    if (!manifest.isOpen()) {
      startNewManifest();
    }
    if (!edit.hasLogNumber()) {
      edit.setLogNumber(logNumber);
    }
    // After startNewManifest(), which allocates a number: the edit must not lower the counter.
    edit.setNextFileNumber(nextFileNumber.get());
    edit.setLastSequence(lastSequence);
    pending = new PendingEdit(edit, next, VersionEditCodec.encode(edit));
    return pending;
  }

  /**
   * Appends the pending edit's record to the manifest and syncs it. Needs no engine mutex: the
   * manifest belongs to the pending edit until it is installed. If the write or sync fails, the
   * edit is dropped (not installed), the exception propagates (the engine latches it), the
   * manifest is abandoned (the next edit starts a new one) and the files the edit added stay in
   * {@link #liveFileNumbers()}: the edit may have reached the disk.
   */
  public void write(PendingEdit p) throws IOException {
    requirePending(p);
    try {
      manifest.append(p.record);
      p.written = true;
    } catch (IOException | RuntimeException e) {
      for (VersionEdit.NewFile n : p.edit.newFiles()) {
        possiblyLive.add(n.file().number());
      }
      LogWriter abandoned = manifest.abandon();
      pending = null;
      ManifestWriter.closeQuietly(abandoned, e);
      throw e;
    }
  }

  /** Installs the written pending edit's version as current. Requires: the engine mutex. */
  public void install(PendingEdit p) {
    requirePending(p);
    if (!p.written) {
      throw new IllegalStateException("the pending edit was not written");
    }
    pending = null;
    install(p.next);
    logNumber = p.edit.logNumber();
    p.edit.compactPointers().forEach((level, key) -> compactPointers[level] = key.clone());
  }

  private void requirePending(PendingEdit p) {
    if (p == null || p != pending) {
      throw new IllegalStateException("not the pending edit");
    }
  }

  private void install(Version next) {
    next.ref(); // the version set's own reference to its current version
    synchronized (liveLock) {
      liveVersions.add(next);
    }
    Version previous = current;
    current = next;
    if (previous != null) {
      previous.unref();
    }
    versionInstalledListener.run();
  }

  /** Called by a version when its last reference is dropped. */
  private void released(Version v) {
    synchronized (liveLock) {
      liveVersions.remove(v);
    }
    versionReleasedListener.run();
  }

  /**
   * Called (on the releasing thread, holding no version-set lock) each time a version's last
   * reference is dropped, e.g. to schedule obsolete-file deletion. It may run while the caller of
   * {@code unref()} holds the engine mutex.
   */
  public void setVersionReleasedListener(Runnable listener) {
    this.versionReleasedListener = Objects.requireNonNull(listener);
  }

  /**
   * Called after each install, once the new version is {@link #current()}, on the installing
   * thread (holding the engine mutex): e.g. to drop references to the replaced version that reads
   * keep cached.
   */
  public void setVersionInstalledListener(Runnable listener) {
    this.versionInstalledListener = Objects.requireNonNull(listener);
  }

  /** The current version, without a reference: callers that keep it past the mutex call ref(). */
  public Version current() {
    return current;
  }

  /** The current version with a reference taken, safe without the engine mutex. */
  public Version refCurrent() {
    while (true) {
      Version v = current;
      if (v.tryRef()) {
        return v;
      }
      // Replaced and released between the read and the ref: the new current is live.
    }
  }

  /**
   * Files referenced by any version still referenced (the current one, or ones pinned by
   * iterators and reads), plus files of an edit whose manifest write failed. Files being written
   * by a running flush or compaction are in no version: the engine protects those itself.
   */
  public Set<Long> liveFileNumbers() {
    Set<Long> out = new HashSet<>(possiblyLive);
    synchronized (liveLock) {
      for (Version v : liveVersions) {
        for (int level = 0; level < v.numLevels(); level++) {
          for (FileMetaData f : v.files(level)) {
            out.add(f.number());
          }
        }
        v.addBufferFileNumbers(out);
      }
    }
    return out;
  }

  /** Number of versions still referenced (for tests and stats). */
  public int liveVersionCount() {
    synchronized (liveLock) {
      return liveVersions.size();
    }
  }

  /** Allocates a file number; thread-safe. */
  public long newFileNumber() {
    return nextFileNumber.getAndIncrement();
  }

  /** Makes sure {@code number} is never allocated (e.g. a log found during recovery). */
  public void markFileNumberUsed(long number) {
    nextFileNumber.accumulateAndGet(number + 1, Math::max);
  }

  /** The next file number {@link #newFileNumber()} would return. */
  public long nextFileNumber() {
    return nextFileNumber.get();
  }

  public long lastSequence() {
    return lastSequence;
  }

  /** Requires: the engine mutex; sequences never go back. */
  public void setLastSequence(long sequence) {
    if (sequence < lastSequence || sequence > InternalKey.MAX_SEQUENCE) {
      throw new IllegalArgumentException("last sequence " + sequence + " would go back from " + lastSequence);
    }
    lastSequence = sequence;
  }

  /** Logs numbered below this are obsolete (their data is in tables). */
  public long logNumber() {
    return logNumber;
  }

  /** The manifest CURRENT names (0 before create/recover). */
  public long manifestFileNumber() {
    return manifest.fileNumber();
  }

  /** Where the next compaction of {@code level} starts, or null. Requires: the engine mutex. */
  public byte[] compactPointer(int level) {
    byte[] key = compactPointers[level];
    return key == null ? null : key.clone();
  }

  /**
   * Closes the manifest (it is synced after every edit, so nothing is lost) and what the current
   * version keeps open for its reads (its table handles), whose reference this set holds until
   * the end. Idempotent. Requires: no read in flight.
   */
  @Override
  public void close() throws IOException {
    manifest.closeManifest(current);
  }
}
