package dev.cairn.db;

import dev.cairn.CairnException;
import dev.cairn.CairnIOException;
import dev.cairn.fs.FileNames;
import dev.cairn.fs.FileSystem;
import java.io.IOException;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.Path;
import java.util.EnumSet;
import java.util.Set;

/**
 * The directory a checkpoint or a restore is built in, beside its target, and renamed to the
 * target once whole. Its {@code LOCK} (the lock file every database directory holds) is held from
 * the moment it is taken until it is closed, so that two such operations into one target, from
 * this process or another, never share it: one's copy or clean-up would otherwise touch the
 * other's files, among them a checkpoint's hard links to live tables. Taking it clears what an
 * interrupted operation into the same target left; a directory holding a file no such operation
 * writes is refused and left as it was.
 */
final class BuildingDirectory implements AutoCloseable {
  private final FileSystem fs;
  private final Path path;
  private final AutoCloseable lock;

  private BuildingDirectory(FileSystem fs, Path path, AutoCloseable lock) {
    this.fs = fs;
    this.path = path;
    this.lock = lock;
  }

  /**
   * Takes {@code building} for an operation {@code what} into {@code target} that writes files of
   * {@code kinds} besides the directory's own {@link FileNames.Kind#LOCK}.
   *
   * @throws CairnException when another operation holds it, or it holds a file of another kind
   */
  static BuildingDirectory take(FileSystem fs, Path building, Set<FileNames.Kind> kinds, String what, Path target) {
    Path lockFile = building.resolve(FileNames.LOCK);
    boolean lockFileWasThere;
    try {
      fs.createDirectories(building);
      lockFileWasThere = fs.exists(lockFile);
    } catch (IOException e) {
      throw new CairnIOException("preparing the " + what + " directory " + building, e);
    }
    AutoCloseable lock;
    try {
      lock = fs.lock(lockFile);
    } catch (IOException | java.nio.channels.OverlappingFileLockException e) {
      throw new CairnException(what + " into " + target + " refused: another " + what + " into it is being made ("
          + building + " is locked)", e);
    }
    try {
      Set<FileNames.Kind> leftover = EnumSet.of(FileNames.Kind.LOCK);
      leftover.addAll(kinds);
      CopyFiles.clearLeftover(fs, building, leftover, what, FileNames.LOCK);
      return new BuildingDirectory(fs, building, lock);
    } catch (IOException | RuntimeException e) {
      try {
        if (!lockFileWasThere) {
          fs.delete(lockFile); // a directory refused is left as it was; deleted while still held
        }
        lock.close();
      } catch (Exception suppressed) {
        e.addSuppressed(suppressed);
      }
      if (e instanceof IOException io) {
        throw new CairnIOException("preparing the " + what + " directory " + building, io);
      }
      throw (RuntimeException) e;
    }
  }

  Path path() {
    return path;
  }

  /** Renames the directory, whole, to {@code target}; its lock file goes with it. */
  void renameTo(Path target) throws IOException {
    fs.rename(path, target);
  }

  /**
   * Removes the directory after a failure, adding what fails to {@code primary}: every file but
   * {@code LOCK}, then {@code LOCK}, then the directory, the lock held throughout. Once {@code
   * LOCK} is gone another operation may take the directory, so nothing is deleted by name after
   * it; the directory stays if that one has begun.
   */
  void removeAfter(Exception primary) {
    try {
      for (String name : fs.list(path)) {
        if (!name.equals(FileNames.LOCK)) {
          fs.delete(path.resolve(name));
        }
      }
      fs.delete(path.resolve(FileNames.LOCK));
      try {
        fs.delete(path);
      } catch (DirectoryNotEmptyException taken) {
        // Another operation took the directory after LOCK went: it is that one's now.
      }
    } catch (IOException | RuntimeException e) {
      primary.addSuppressed(e);
    }
  }

  /** Releases the lock. */
  @Override
  public void close() {
    try {
      lock.close();
    } catch (Exception e) {
      // Closing the lock's channel failed: the lock is gone with it, and nothing is left to undo.
    }
  }
}
