package dev.cairn.version;

import dev.cairn.fs.FileSystem;
import dev.cairn.fs.IoStats;
import dev.cairn.fs.IoTag;
import dev.cairn.fs.ReadableFile;
import dev.cairn.fs.WritableFile;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.List;

/** Delegates to a real filesystem, failing the operations a test arms. */
final class FaultFileSystem implements FileSystem {
  private final FileSystem delegate;
  /** Fail the next sync of a file whose name starts with this prefix; null = off. */
  volatile String failSyncOf;
  volatile boolean failRename;
  volatile boolean failDirectorySync;

  FaultFileSystem(FileSystem delegate) {
    this.delegate = delegate;
  }

  @Override
  public WritableFile create(Path path, IoTag tag) throws IOException {
    return wrap(path, delegate.create(path, tag));
  }

  @Override
  public WritableFile openForAppend(Path path, long length, IoTag tag) throws IOException {
    return wrap(path, delegate.openForAppend(path, length, tag));
  }

  private WritableFile wrap(Path path, WritableFile file) {
    return new WritableFile() {
      @Override
      public void append(byte[] data, int off, int len) throws IOException {
        file.append(data, off, len);
      }

      @Override
      public void append(ByteBuffer data) throws IOException {
        file.append(data);
      }

      @Override
      public void flush() throws IOException {
        file.flush();
      }

      @Override
      public void sync() throws IOException {
        String prefix = failSyncOf;
        if (prefix != null && path.getFileName().toString().startsWith(prefix)) {
          failSyncOf = null;
          file.flush(); // the bytes may well have reached the disk
          throw new IOException("injected sync failure on " + path);
        }
        file.sync();
      }

      @Override
      public long size() {
        return file.size();
      }

      @Override
      public void close() throws IOException {
        file.close();
      }
    };
  }

  @Override
  public ReadableFile openReadable(Path path) throws IOException {
    return delegate.openReadable(path);
  }

  @Override
  public void rename(Path source, Path target) throws IOException {
    if (failRename) {
      throw new IOException("injected rename failure " + source + " -> " + target);
    }
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
    if (failDirectorySync) {
      throw new IOException("injected directory sync failure on " + dir);
    }
    delegate.syncDirectory(dir);
  }

  @Override
  public AutoCloseable lock(Path lockFile) throws IOException {
    return delegate.lock(lockFile);
  }

  @Override
  public IoStats ioStats() {
    return delegate.ioStats();
  }
}
