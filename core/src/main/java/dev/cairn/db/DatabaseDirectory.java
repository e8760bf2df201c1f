package dev.cairn.db;

import dev.cairn.CairnException;
import dev.cairn.CairnIOException;
import dev.cairn.Options;
import dev.cairn.fs.FileNames;
import dev.cairn.fs.FileSystem;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

/**
 * Checks a directory before an open and takes its {@code LOCK}. Every check that can refuse the
 * open runs before anything is written, so that a refused open changes nothing on disk.
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
          List<String> others = fs.list(dir).stream().filter(n -> !n.equals(FileNames.LOCK)).sorted().toList();
          if (!others.isEmpty()) {
            throw new CairnException(dir + " is not a Cairn database: it has no CURRENT file but holds "
                + others.size() + " other file(s), e.g. '" + others.get(0) + "'; refusing to create a database there");
          }
        }
        fs.createDirectories(dir);
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

  static void unlockQuietly(AutoCloseable lock) {
    try {
      lock.close();
    } catch (Exception e) {
      // Releasing a lock of a database that failed to open or is closing: the process's exit
      // releases it anyway.
    }
  }
}
