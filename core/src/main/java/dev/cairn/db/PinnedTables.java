package dev.cairn.db;

import dev.cairn.db.base.Engine;
import dev.cairn.fs.FileNames;
import dev.cairn.fs.FileSystem;
import dev.cairn.version.FileMetaData;
import dev.cairn.version.Version;
import dev.cairn.version.VersionEdit;
import dev.cairn.version.VersionSet;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Collection;

/**
 * A live database's tables at one point in time, kept on disk until closed: what a checkpoint or
 * a backup copies. Taking one flushes the memtable first, so the tables hold every write
 * acknowledged before the call and no write-ahead log is needed beside them.
 */
final class PinnedTables implements AutoCloseable {
  private final Engine engine;
  private final Version version;
  private final long manifestNumber;
  private final VersionEdit manifest;
  private final long lastSequence;

  private PinnedTables(Engine engine, Version version, long manifestNumber, VersionEdit manifest, long lastSequence) {
    this.engine = engine;
    this.version = version;
    this.manifestNumber = manifestNumber;
    this.manifest = manifest;
    this.lastSequence = lastSequence;
  }

  /** Flushes ({@code flush} waits for the flush) and pins the version that follows. */
  static PinnedTables pin(Engine engine, Runnable flush) {
    flush.run();
    engine.mutex().lock();
    try {
      VersionSet versions = engine.versions();
      Version v = versions.current();
      long number = versions.nextFileNumber();
      VersionEdit edit = versions.copyEdit(v, number);
      v.ref(); // last: nothing after it may throw and leave the version pinned for good
      return new PinnedTables(engine, v, number, edit, versions.lastSequence());
    } finally {
      engine.mutex().unlock();
    }
  }

  /** Every table of the pinned version, levels and compaction buffers, by file number. */
  Collection<FileMetaData> tables() {
    return version.allTables().values();
  }

  Path tablePath(long number) {
    return FileNames.tablePath(engine.dir(), number);
  }

  /** The newest sequence the tables may hold. */
  long lastSequence() {
    return lastSequence;
  }

  /**
   * Writes the copy's manifest (naming exactly {@link #tables()}) and CURRENT into {@code dir}, on
   * {@code fs} (the copy's file system, which may not be the database's).
   */
  void writeManifest(FileSystem fs, Path dir) throws IOException {
    VersionSet.writeCopyManifest(fs, dir, manifestNumber, manifest);
  }

  /** The file name of the manifest {@link #writeManifest} writes. */
  String manifestName() {
    return FileNames.manifest(manifestNumber);
  }

  @Override
  public void close() {
    version.unref();
  }
}
