package dev.cairn.db;

import dev.cairn.CairnException;
import dev.cairn.CairnIOException;
import dev.cairn.db.base.Engine;
import dev.cairn.fs.FileNames;
import dev.cairn.fs.FileSystem;
import dev.cairn.version.FileMetaData;
import java.io.IOException;
import java.nio.file.Path;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/**
 * An openable copy of a live database at one point in time, made while writes go on
 * (docs/operations.md, "Checkpoints"):
 *
 * <ol>
 *   <li>the memtable is flushed, so the copy needs no write-ahead log: its point in time is the
 *       flush's, which follows every write acknowledged before the call;
 *   <li>the current version is pinned, so that none of its tables is deleted meanwhile;
 *   <li>its tables are hard-linked into a temporary directory beside the target, or copied up to
 *       their valid length where a link cannot be made or the table is being appended to
 *       ({@link dev.cairn.db.base.TableLinks} keeps appends off linked files from then on);
 *   <li>a manifest describing that version alone and a CURRENT naming it are written and synced;
 *   <li>the temporary directory is renamed to the target: the target appears whole or not at all.
 * </ol>
 *
 * The temporary directory's {@code LOCK} is held throughout, so a second checkpoint into the same
 * target is refused. A failure removes the temporary directory; the database is unchanged either
 * way.
 */
final class Checkpoint {
  /** Suffix of the directory a checkpoint is built in before it takes its name. */
  static final String BUILDING_SUFFIX = ".checkpoint-building";
  /** What a checkpoint writes in its building directory, besides the directory's LOCK. */
  static final Set<FileNames.Kind> COPY_KINDS = EnumSet.of(FileNames.Kind.TABLE,
      FileNames.Kind.MANIFEST, FileNames.Kind.CURRENT, FileNames.Kind.TEMP);

  private final Engine engine;
  private final FileSystem fs;

  Checkpoint(Engine engine) {
    this.engine = engine;
    this.fs = engine.fs();
  }

  /**
   * Makes the checkpoint in {@code target}, which must not exist; {@code flush} flushes the
   * memtable and waits for it.
   */
  void create(Path target, Runnable flush) {
    Path absolute = target.toAbsolutePath().normalize();
    Path building = checkTarget(absolute);
    try (BuildingDirectory dir = BuildingDirectory.take(fs, building, COPY_KINDS, "checkpoint", absolute)) {
      build(absolute, dir, flush);
    }
    try {
      fs.syncDirectory(absolute.getParent());
    } catch (IOException e) {
      throw new CairnIOException("checkpoint " + absolute + " is made and complete, but its name may not survive a"
          + " power loss (syncing " + absolute.getParent() + " failed)", e);
    }
  }

  /** Builds the checkpoint in {@code dir}, taken, and renames it to {@code absolute}. */
  private void build(Path absolute, BuildingDirectory dir, Runnable flush) {
    Path building = dir.path();
    try (PinnedTables pinned = PinnedTables.pin(engine, flush)) {
      List<FileMetaData> toCopy = engine.tableLinks().linkInto(engine.dir(), building, pinned.tables());
      for (FileMetaData t : toCopy) {
        copyTable(t, building);
      }
      pinned.writeManifest(fs, building);
      fs.syncDirectory(building);
      dir.renameTo(absolute);
    } catch (IOException | RuntimeException e) {
      dir.removeAfter(e);
      if (e instanceof IOException io) {
        throw new CairnIOException("checkpoint of " + engine.dir() + " into " + absolute + " failed", io);
      }
      throw (RuntimeException) e;
    }
  }

  /**
   * Refuses a target that exists or is the database itself; returns the directory to build in
   * (its parent created).
   */
  private Path checkTarget(Path target) {
    if (target.getParent() == null) {
      throw new IllegalArgumentException("checkpoint directory " + target + " has no parent directory");
    }
    Path dir = engine.dir().toAbsolutePath().normalize();
    if (target.startsWith(dir) || dir.startsWith(target)) {
      throw new IllegalArgumentException("checkpoint directory " + target + " must lie outside the database "
          + dir + " and not contain it");
    }
    if (fs.exists(target)) {
      throw new CairnException("checkpoint directory " + target + " already exists: a checkpoint makes a new directory");
    }
    Path building = target.resolveSibling(target.getFileName() + BUILDING_SUFFIX);
    try {
      fs.createDirectories(target.getParent());
    } catch (IOException e) {
      throw new CairnIOException("preparing checkpoint directory " + target, e);
    }
    return building;
  }

  /** Copies table {@code t} up to its valid length (its file may be longer: an append's tail). */
  private void copyTable(FileMetaData t, Path into) throws IOException {
    CopyFiles.copy(fs, FileNames.tablePath(engine.dir(), t.number()), t.totalBytes(), fs,
        FileNames.tablePath(into, t.number()), chunk -> {});
  }
}
