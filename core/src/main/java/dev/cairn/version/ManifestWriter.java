package dev.cairn.version;

import dev.cairn.Options;
import dev.cairn.fs.FileNames;
import dev.cairn.fs.FileSystem;
import dev.cairn.fs.IoTag;
import dev.cairn.model.BufferEntry;
import dev.cairn.model.BufferRun;
import dev.cairn.wal.LogWriter;
import java.io.IOException;
import java.nio.file.Path;

/**
 * The manifest a {@link VersionSet} appends its edits to (docs/manifest_format.md): starting a new
 * one, whose first edit is a snapshot of the set's whole state, switching CURRENT to it, appending
 * an edit's record, abandoning it after a failed write, and closing it.
 *
 * <p>Thread-safety, as the version set's: starting and switching a manifest require that the
 * caller holds the engine's mutex; between {@link VersionSet#prepare} and {@link
 * VersionSet#install(VersionSet.PendingEdit)} the open manifest belongs to the pending edit's
 * writer, which appends to it (or abandons it) without the mutex; closing requires no read in
 * flight ({@link VersionSet#close()}); {@link #fileNumber()} may be read from any thread.
 */
final class ManifestWriter {
  // Immutable after construction.
  private final Path dir;
  private final FileSystem fs;

  // Volatile: read without the engine mutex.
  private volatile long fileNumber;

  // Guarded by the engine mutex.
  /**
   * The manifest being appended to; null until one is started (or after a failed write). Between
   * {@link VersionSet#prepare} and {@link VersionSet#install(VersionSet.PendingEdit)} it belongs
   * to the pending edit's writer, which writes it without the mutex; nothing else touches it then.
   */
  private LogWriter manifest;

  ManifestWriter(Path dir, FileSystem fs) {
    this.dir = dir;
    this.fs = fs;
  }

  /** The manifest CURRENT names (0 before create/recover). */
  long fileNumber() {
    return fileNumber;
  }

  /** Whether a manifest is open for appending. */
  boolean isOpen() {
    return manifest != null;
  }

  /** Notes the manifest CURRENT names at recovery, which stays closed: the next edit starts a new one. */
  void recovered(long number) {
    fileNumber = number;
  }

  /**
   * Writes a new manifest whose first edit is a snapshot of the whole state of {@code versions},
   * syncs it, and switches CURRENT to it (temporary file, atomic rename, directory fsync).
   * Deletes nothing: the previous manifest becomes an obsolete file for the engine to delete.
   * Requires: the engine mutex.
   */
  void startNewManifest(VersionSet versions) throws IOException {
    long number = versions.newFileNumber();
    Version v = versions.current();
    switchManifest(number, snapshot(versions, v, versions.logNumber(), versions.nextFileNumber()), v);
  }

  /**
   * A manifest's first edit: the format version, the counters ({@code logNumber}, {@code
   * nextFileNumber}, and the set's last sequence), the set's compaction pointers and every file
   * and compaction-buffer entry of {@code v}. Requires: the engine mutex.
   */
  static VersionEdit snapshot(VersionSet versions, Version v, long logNumber, long nextFileNumber) {
    VersionEdit snapshot = VersionSet.firstEdit(versions.valueFormat())
        .setLogNumber(logNumber)
        .setNextFileNumber(nextFileNumber)
        .setLastSequence(versions.lastSequence());
    if (v.mayHoldRangeTombstones()) {
      snapshot.markRangeDeletions();
    }
    for (int level = 0; level < Options.MAX_LEVELS; level++) {
      byte[] pointer = versions.compactPointer(level);
      if (pointer != null) {
        snapshot.setCompactPointer(level, pointer);
      }
    }
    for (int level = 0; level < v.numLevels(); level++) {
      for (FileMetaData f : v.files(level)) {
        snapshot.addFile(level, f);
      }
      for (BufferRun<FileMetaData> t : v.bufferRuns(level)) {
        for (BufferEntry<FileMetaData> e : t.entries()) {
          snapshot.addToBuffer(level, t.id(), e);
        }
      }
    }
    return snapshot;
  }

  /**
   * Writes manifest {@code number} holding {@code first} into {@code dir}, another database's
   * directory (a copy being made), syncs it, and points that directory's CURRENT at it.
   */
  static void writeCopy(FileSystem fs, Path dir, long number, VersionEdit first) throws IOException {
    writeAndPointCurrent(fs, dir, number, first).close();
  }

  /**
   * Writes manifest {@code number} of {@code dir} holding {@code first}, syncs it and points
   * CURRENT at it; returns the manifest still open, or closes it and throws.
   */
  private static LogWriter writeAndPointCurrent(FileSystem fs, Path dir, long number, VersionEdit first)
      throws IOException {
    LogWriter writer = new LogWriter(fs.create(dir.resolve(FileNames.manifest(number)), IoTag.MANIFEST));
    try {
      writer.addRecord(VersionEditCodec.encode(first));
      writer.sync();
      // The manifest's name is durable before CURRENT names it (LevelDB's rule): a filesystem
      // may persist the rename below before the create, which would leave CURRENT naming nothing.
      fs.syncDirectory(dir);
      CurrentFile.replace(fs, dir, number);
      return writer;
    } catch (IOException | RuntimeException e) {
      closeQuietly(writer, e);
      throw e;
    }
  }

  /**
   * Writes manifest {@code number} holding {@code first}, syncs it, and points CURRENT at it. The
   * manifest it replaces is closed as {@link VersionSet#close()} closes it, together with what
   * {@code current}, the set's current version, keeps open for its reads.
   */
  void switchManifest(long number, VersionEdit first, Version current) throws IOException {
    LogWriter writer = writeAndPointCurrent(fs, dir, number, first);
    // Once renamed, CURRENT may name the new manifest even if the directory sync below fails:
    // adopt it first, so that the engine never deletes the manifest CURRENT names.
    closeManifest(current);
    manifest = writer;
    fileNumber = number;
    fs.syncDirectory(dir);
  }

  /** Appends {@code record} to the open manifest and syncs it. */
  void append(byte[] record) throws IOException {
    manifest.addRecord(record);
    manifest.sync();
  }

  /**
   * Gives up the open manifest after a failed append: the next edit starts a new one. Returns it,
   * for the caller to close ({@link #closeQuietly}) once it has dropped its pending edit.
   */
  LogWriter abandon() {
    LogWriter abandoned = manifest;
    manifest = null;
    return abandoned;
  }

  /**
   * Closes what {@code current} keeps open for its reads (if there is a current version), then
   * the manifest: {@link VersionSet#close()}'s work. Idempotent.
   */
  void closeManifest(Version current) throws IOException {
    if (current != null) {
      current.closeKept();
    }
    LogWriter writer = manifest;
    manifest = null;
    if (writer != null) {
      writer.close();
    }
  }

  /** Closes {@code writer}, adding a failure to {@code primary}'s suppressed exceptions. */
  static void closeQuietly(LogWriter writer, Throwable primary) {
    try {
      writer.close();
    } catch (IOException | RuntimeException e) {
      primary.addSuppressed(e);
    }
  }
}
