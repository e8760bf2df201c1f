package dev.cairn.db;

import dev.cairn.CairnException;
import dev.cairn.CairnIOException;
import dev.cairn.Options;
import dev.cairn.fs.FileNames;
import dev.cairn.fs.FileSystem;
import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.Path;
import java.util.List;

/**
 * Checks a directory before an open and takes its {@code LOCK}. Every check here runs before
 * anything is written, so that an open refused here changes nothing on disk. (An open that
 * recovery fails later, on a damaged log, may leave the tables it wrote from the logs before it;
 * no manifest names them, and the next open that succeeds deletes them.)
 */
final class DatabaseDirectory {
  private DatabaseDirectory() {}

  static AutoCloseable prepareAndLock(FileSystem fs, Path dir, Options options) {
    try {
      boolean dirExists = fs.exists(dir);
      boolean hasCurrent = dirExists && fs.exists(dir.resolve(FileNames.CURRENT));
      if (hasCurrent && options.errorIfExists()) {
        throw new CairnException("database " + dir + " already exists and errorIfExists is set");
      }
      if (!hasCurrent) {
        if (!options.createIfMissing()) {
          throw new CairnException("database " + dir + " does not exist (no CURRENT file) and createIfMissing is false");
        }
        if (dirExists) {
          List<String> others = fs.list(dir).stream().filter(n -> !leftByACreation(n)).sorted().toList();
          if (!others.isEmpty()) {
            throw new CairnException(dir + " is not a Cairn database: it has no CURRENT file but holds "
                + others.size() + " other file(s), e.g. '" + others.get(0) + "'; refusing to create a database there");
          }
        }
        fs.createDirectories(dir);
        syncIntoParent(fs, dir);
      }
      try {
        return fs.lock(dir.resolve(FileNames.LOCK));
      } catch (IOException | java.nio.channels.OverlappingFileLockException e) {
        throw new CairnException("database " + dir + " is in use: cannot take its LOCK (" + e.getMessage() + ")", e);
      }
    } catch (IOException e) {
      throw new CairnIOException("opening database directory " + dir, e);
    }
  }

  /**
   * Makes the directory's own name durable before anything in it is: a synced write in a
   * database whose directory a power loss took away would be lost with it. Done at every
   * creation, also into a directory that already existed (made by a user, or by a creation that
   * crashed before this). A parent this process may enter but not read cannot be synced: the
   * name's durability is then the filesystem's.
   */
  private static void syncIntoParent(FileSystem fs, Path dir) throws IOException {
    Path parent = dir.toAbsolutePath().getParent();
    if (parent == null) {
      return;
    }
    try {
      fs.syncDirectory(parent);
    } catch (AccessDeniedException e) {
      // Not ours to sync; see above.
    }
  }

  /**
   * Whether a directory without CURRENT may hold {@code name} and still be created as a database:
   * the LOCK, and what a creation that failed or crashed before CURRENT was written leaves (the
   * first manifest, CURRENT's temporary file), which the creation writes again.
   */
  private static boolean leftByACreation(String name) {
    return name.equals(FileNames.LOCK) || name.equals(FileNames.manifest(FileNames.FIRST_MANIFEST_NUMBER))
        || name.equals(FileNames.temp(FileNames.FIRST_MANIFEST_NUMBER));
  }

  static void unlockQuietly(AutoCloseable lock) {
    try {
      lock.close();
    } catch (Exception e) {
      // Releasing a lock of a database that failed to open or is closing: the process's exit
      // releases it anyway.
    }
  }
}
