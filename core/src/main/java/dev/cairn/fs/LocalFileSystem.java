package dev.cairn.fs;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * The real filesystem, through {@link FileChannel}. Writes are buffered in the {@link
 * WritableFile} until {@link WritableFile#flush()}; reads are positional and thread-safe.
 */
public final class LocalFileSystem implements FileSystem {
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
    FileChannel ch = FileChannel.open(path, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
        StandardOpenOption.TRUNCATE_EXISTING);
    return new ChannelWritableFile(ch, 0, tag);
  }

  @Override
  public WritableFile openForAppend(Path path, long length, IoTag tag) throws IOException {
    FileChannel ch = FileChannel.open(path, StandardOpenOption.WRITE);
    try {
      long size = ch.size();
      if (length > size) {
        throw new IOException(path + " is " + size + " bytes, shorter than its valid length " + length);
      }
      ch.truncate(length);
      ch.position(length);
    } catch (IOException | RuntimeException e) {
      ch.close();
      throw e;
    }
    return new ChannelWritableFile(ch, length, tag);
  }

  @Override
  public ReadableFile openReadable(Path path) throws IOException {
    if (directReads) {
      return DirectReadableFile.open(path, stats);
    }
    return new ChannelReadableFile(FileChannel.open(path, StandardOpenOption.READ));
  }

  @Override
  public void rename(Path source, Path target) throws IOException {
    Files.move(source, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
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
    FileChannel ch = FileChannel.open(lockFile, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
    FileLock lock;
    try {
      lock = ch.tryLock();
    } catch (OverlappingFileLockException e) {
      ch.close();
      throw new IOException("lock " + lockFile + " is already held by this process", e);
    } catch (IOException e) {
      ch.close();
      throw e;
    }
    if (lock == null) {
      ch.close();
      throw new IOException("lock " + lockFile + " is held by another process");
    }
    return () -> {
      try {
        lock.release();
      } finally {
        ch.close();
      }
    };
  }

  @Override
  public IoStats ioStats() {
    return stats;
  }

  private final class ChannelWritableFile implements WritableFile {
    private final FileChannel ch;
    private final IoTag tag;
    private final ByteBuffer buffer = ByteBuffer.allocate(WRITE_BUFFER_BYTES);
    private long size;
    private boolean closed;

    ChannelWritableFile(FileChannel ch, long size, IoTag tag) {
      this.ch = ch;
      this.size = size;
      this.tag = tag;
    }

    @Override
    public void append(byte[] data, int off, int len) throws IOException {
      append(ByteBuffer.wrap(data, off, len));
    }

    @Override
    public void append(ByteBuffer data) throws IOException {
      int len = data.remaining();
      if (len > buffer.remaining()) {
        flush();
        if (len > buffer.capacity()) {
          writeFully(data);
          size += len;
          return;
        }
      }
      buffer.put(data);
      size += len;
    }

    private void writeFully(ByteBuffer data) throws IOException {
      int n = data.remaining();
      while (data.hasRemaining()) {
        ch.write(data);
      }
      stats.recordWrite(tag, n);
    }

    @Override
    public void flush() throws IOException {
      if (buffer.position() > 0) {
        buffer.flip();
        writeFully(buffer);
        buffer.clear();
      }
    }

    @Override
    public void sync() throws IOException {
      flush();
      ch.force(false);
    }

    @Override
    public long size() {
      return size;
    }

    @Override
    public void close() throws IOException {
      if (closed) {
        return;
      }
      closed = true;
      try {
        flush();
      } finally {
        ch.close();
      }
    }
  }

  private final class ChannelReadableFile implements ReadableFile {
    private final FileChannel ch;

    ChannelReadableFile(FileChannel ch) {
      this.ch = ch;
    }

    @Override
    public int read(long position, ByteBuffer dst, IoTag tag) throws IOException {
      int total = 0;
      while (dst.hasRemaining()) {
        int n = ch.read(dst, position + total);
        if (n < 0) {
          break;
        }
        total += n;
      }
      stats.recordRead(tag, total);
      return total;
    }

    @Override
    public long size() throws IOException {
      return ch.size();
    }

    @Override
    public void close() throws IOException {
      ch.close();
    }
  }
}
