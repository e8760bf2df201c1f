package dev.cairn.fs;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

/**
 * All of the engine's file I/O goes through this interface, so that tests can substitute a
 * fault-injecting or crash-simulating implementation, and so that every byte is counted by
 * purpose in {@link #ioStats()}.
 */
public interface FileSystem {
  /** Creates (or truncates) {@code path} for appending. */
  WritableFile create(Path path, IoTag tag) throws IOException;

  /**
   * Opens an existing file for appending after truncating it to {@code length}. Used by block
   * compaction, which appends at a table's tail: bytes past the manifest's valid length are a
   * torn earlier append and are dropped.
   */
  WritableFile openForAppend(Path path, long length, IoTag tag) throws IOException;

  ReadableFile openReadable(Path path) throws IOException;

  /** Atomically replaces {@code target} with {@code source}. */
  void rename(Path source, Path target) throws IOException;

  /** Deletes the file if it exists; returns whether it existed. */
  boolean delete(Path path) throws IOException;

  boolean exists(Path path);

  long size(Path path) throws IOException;

  /** File names (not paths) directly inside {@code dir}. */
  List<String> list(Path dir) throws IOException;

  void createDirectories(Path dir) throws IOException;

  /** fsyncs a directory so that creations, renames and deletions in it are durable. */
  void syncDirectory(Path dir) throws IOException;

  /**
   * Takes an exclusive advisory lock on {@code lockFile} (creating it), held until the returned
   * handle is closed. Throws {@link java.nio.channels.OverlappingFileLockException} or an
   * {@link IOException} naming the holder when another process or opener holds it.
   */
  AutoCloseable lock(Path lockFile) throws IOException;

  /**
   * Gives the file {@code existing} a second name, {@code link} (a hard link: both names are one
   * file, so a change through either shows through both). A checkpoint links tables it does not
   * have to copy. Throws {@link UnsupportedOperationException} where the file system has no links
   * (the default), and an {@link IOException} where it cannot make this one (another device, a
   * file system without them): the caller copies instead.
   */
  default void link(Path existing, Path link) throws IOException {
    throw new UnsupportedOperationException(getClass().getName() + " makes no hard links");
  }

  /**
   * How many names {@code path}'s file has (its hard links). An appender never changes a file
   * with more than one: the other name may be a checkpoint's, whose copy must not move. Throws
   * {@link UnsupportedOperationException} where the file system cannot count them (the default):
   * the engine then makes no links of its own there (a checkpoint copies), so that links and the
   * count of them are one capability.
   */
  default int linkCount(Path path) throws IOException {
    throw new UnsupportedOperationException(getClass().getName() + " counts no hard links");
  }

  /** Byte counters by purpose. */
  IoStats ioStats();
}
