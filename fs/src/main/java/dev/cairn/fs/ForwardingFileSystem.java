package dev.cairn.fs;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.List;

/**
 * A filesystem that forwards every call to a delegate. Subclasses override the calls they change:
 * {@link SeekDelayFileSystem} delays reads to model a slow disk, and tests observe, block or break
 * calls. {@link #wrap} lets a subclass intercept the operations of a writable file.
 */
public class ForwardingFileSystem implements FileSystem {
  protected final FileSystem delegate;

  public ForwardingFileSystem(FileSystem delegate) {
    this.delegate = delegate;
  }

  public ForwardingFileSystem() {
    this(new LocalFileSystem());
  }

  /** Returns the file the engine sees for a newly created or reopened file; default: unchanged. */
  protected WritableFile wrap(Path path, WritableFile file) {
    return file;
  }

  @Override
  public WritableFile create(Path path, IoTag tag) throws IOException {
    return wrap(path, delegate.create(path, tag));
  }

  @Override
  public WritableFile openForAppend(Path path, long length, IoTag tag) throws IOException {
    return wrap(path, delegate.openForAppend(path, length, tag));
  }

  @Override
  public ReadableFile openReadable(Path path) throws IOException {
    return delegate.openReadable(path);
  }

  @Override
  public void rename(Path source, Path target) throws IOException {
    delegate.rename(source, target);
  }

  @Override
  public boolean delete(Path path) throws IOException {
    return delegate.delete(path);
  }

  @Override
  public boolean exists(Path path) {
    return delegate.exists(path);
  }

  @Override
  public long size(Path path) throws IOException {
    return delegate.size(path);
  }

  @Override
  public List<String> list(Path dir) throws IOException {
    return delegate.list(dir);
  }

  @Override
  public void createDirectories(Path dir) throws IOException {
    delegate.createDirectories(dir);
  }

  @Override
  public void syncDirectory(Path dir) throws IOException {
    delegate.syncDirectory(dir);
  }

  @Override
  public void link(Path existing, Path link) throws IOException {
    delegate.link(existing, link);
  }

  @Override
  public int linkCount(Path path) throws IOException {
    return delegate.linkCount(path);
  }

  @Override
  public AutoCloseable lock(Path lockFile) throws IOException {
    return delegate.lock(lockFile);
  }

  @Override
  public IoStats ioStats() {
    return delegate.ioStats();
  }

  /** A readable file forwarding every call; override what a test or a decorator intercepts. */
  public static class ForwardingReadableFile implements ReadableFile {
    protected final ReadableFile delegate;

    public ForwardingReadableFile(ReadableFile delegate) {
      this.delegate = delegate;
    }

    @Override
    public int read(long position, ByteBuffer dst, IoTag tag) throws IOException {
      return delegate.read(position, dst, tag);
    }

    @Override
    public long size() throws IOException {
      return delegate.size();
    }

    @Override
    public int directReadAlignment() {
      return delegate.directReadAlignment();
    }

    @Override
    public void close() throws IOException {
      delegate.close();
    }
  }

  /** A writable file forwarding every call; override what a test or a decorator intercepts. */
  public static class ForwardingWritableFile implements WritableFile {
    protected final WritableFile delegate;

    public ForwardingWritableFile(WritableFile delegate) {
      this.delegate = delegate;
    }

    @Override
    public void append(byte[] data, int off, int len) throws IOException {
      delegate.append(data, off, len);
    }

    @Override
    public void append(ByteBuffer data) throws IOException {
      delegate.append(data);
    }

    @Override
    public void flush() throws IOException {
      delegate.flush();
    }

    @Override
    public void sync() throws IOException {
      delegate.sync();
    }

    @Override
    public long size() {
      return delegate.size();
    }

    @Override
    public void close() throws IOException {
      delegate.close();
    }
  }
}
