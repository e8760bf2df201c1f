package dev.cairn.fs;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Stream;

/**
 * The real filesystem. Writes go through {@link RandomAccessFile} and are buffered in the {@link
 * WritableFile} until {@link WritableFile#flush()} ({@link BufferedWritableFile}, which a failed
 * write or sync breaks for good); reads are positional and thread-safe, through a FileChannel
 * that is reopened if a thread interrupt closes it. Neither path lets a thread interrupt break a
 * file for other threads.
 */
public final class LocalFileSystem implements FileSystem {
  /** The lock files this process holds through any instance ({@link #lock}). */
  private static final Set<Path> HELD_LOCKS = ConcurrentHashMap.newKeySet();

  private static final int WRITE_BUFFER_BYTES = 64 * 1024;

  private final IoStats stats = new IoStats();
  private final boolean directReads;

  public LocalFileSystem() {
    this(false);
  }

  /**
   * @param directReads open table files with O_DIRECT so that a block-cache miss costs device
   *     I/O rather than a page-cache copy (for benchmarks; see {@link DirectReadableFile}).
   */
  public LocalFileSystem(boolean directReads) {
    this.directReads = directReads;
  }

  @Override
  public WritableFile create(Path path, IoTag tag) throws IOException {
    RandomAccessFile file = new RandomAccessFile(path.toFile(), "rw");
    try {
      file.setLength(0);
    } catch (IOException | RuntimeException e) {
      file.close();
      throw e;
    }
    return new BufferedWritableFile(BufferedWritableFile.Sink.of(file), path.toString(), 0, WRITE_BUFFER_BYTES,
        stats, tag);
  }

  @Override
  public WritableFile openForAppend(Path path, long length, IoTag tag) throws IOException {
    if (!Files.exists(path)) {
      throw new NoSuchFileException(path.toString());
    }
    RandomAccessFile file = new RandomAccessFile(path.toFile(), "rw");
    try {
      long size = file.length();
      if (length > size) {
        throw new IOException(path + " is " + size + " bytes, shorter than its valid length " + length);
      }
      file.setLength(length);
      file.seek(length);
    } catch (IOException | RuntimeException e) {
      file.close();
      throw e;
    }
    return new BufferedWritableFile(BufferedWritableFile.Sink.of(file), path.toString(), length, WRITE_BUFFER_BYTES,
        stats, tag);
  }

  @Override
  public ReadableFile openReadable(Path path) throws IOException {
    if (directReads) {
      return DirectReadableFile.open(path, stats);
    }
    return new ChannelReadableFile(new InterruptSafeReader(path, StandardOpenOption.READ));
  }

  @Override
  public void rename(Path source, Path target) throws IOException {
    Files.move(source, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
  }

  /** Links only where {@link #linkCount} can count them (Linux, macOS), so that appenders see them. */
  @Override
  public void link(Path existing, Path link) throws IOException {
    if (!Files.getFileStore(existing).supportsFileAttributeView("unix")) {
      throw new IOException("cannot count the links of " + existing + " on this file system, so it is not linked");
    }
    Files.createLink(link, existing);
  }

  /** Throws {@link UnsupportedOperationException} without the "unix" attributes (as {@link #link} refuses there). */
  @Override
  public int linkCount(Path path) throws IOException {
    try {
      return ((Number) Files.getAttribute(path, "unix:nlink")).intValue();
    } catch (IllegalArgumentException e) {
      throw new UnsupportedOperationException("no link count for " + path + " on this file system", e);
    }
  }

  @Override
  public boolean delete(Path path) throws IOException {
    return Files.deleteIfExists(path);
  }

  @Override
  public boolean exists(Path path) {
    return Files.exists(path);
  }

  @Override
  public long size(Path path) throws IOException {
    return Files.size(path);
  }

  @Override
  public List<String> list(Path dir) throws IOException {
    List<String> names = new ArrayList<>();
    try (Stream<Path> s = Files.list(dir)) {
      s.forEach(p -> names.add(p.getFileName().toString()));
    } catch (NoSuchFileException e) {
      return List.of();
    }
    return names;
  }

  @Override
  public void createDirectories(Path dir) throws IOException {
    Files.createDirectories(dir);
  }

  @Override
  public void syncDirectory(Path dir) throws IOException {
    // Linux allows fsync on a directory opened read-only; this is how a rename or a new file's
    // directory entry becomes durable.
    try (FileChannel ch = FileChannel.open(dir, StandardOpenOption.READ)) {
      ch.force(true);
    }
  }

  @Override
  public AutoCloseable lock(Path lockFile) throws IOException {
    // Checked before any channel opens: POSIX locks belong to the process, and closing a second
    // channel on a file this process has locked (after its tryLock refused) would release the
    // holder's lock, letting another process in.
    Path key = lockKey(lockFile);
    if (!HELD_LOCKS.add(key)) {
      throw new IOException("lock " + lockFile + " is already held by this process");
    }
    FileChannel ch;
    FileLock lock;
    try {
      ch = FileChannel.open(lockFile, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
      try {
        lock = ch.tryLock();
      } catch (IOException | RuntimeException e) {
        ch.close();
        throw e;
      }
      if (lock == null) {
        ch.close();
        throw new IOException("lock " + lockFile + " is held by another process");
      }
    } catch (IOException | RuntimeException e) {
      HELD_LOCKS.remove(key);
      throw e;
    }
    return () -> {
      try {
        lock.release();
      } finally {
        try {
          ch.close();
        } finally {
          HELD_LOCKS.remove(key);
        }
      }
    };
  }

  /** The name a lock file is held under: its directory's real path (one file, however reached) and its name. */
  private static Path lockKey(Path lockFile) {
    Path absolute = lockFile.toAbsolutePath().normalize();
    try {
      return absolute.getParent().toRealPath().resolve(absolute.getFileName());
    } catch (IOException e) {
      return absolute; // no directory yet: the open below fails, and nobody holds a lock in it
    }
  }


  @Override
  public IoStats ioStats() {
    return stats;
  }

  private final class ChannelReadableFile implements ReadableFile {
    private final InterruptSafeReader reader;

    ChannelReadableFile(InterruptSafeReader reader) {
      this.reader = reader;
    }

    @Override
    public int read(long position, ByteBuffer dst, IoTag tag) throws IOException {
      int total = reader.read(dst, position);
      stats.recordRead(tag, total);
      return total;
    }

    @Override
    public long size() throws IOException {
      return reader.size();
    }

    @Override
    public void close() throws IOException {
      reader.close();
    }
  }
}
