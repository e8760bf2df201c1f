package dev.cairn.fs;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Predicate;

/**
 * A real filesystem with switchable faults: once {@link #failSyncs}, {@link #failAppends},
 * {@link #failRenames} or {@link #failDirectorySyncs} is armed, those operations throw an
 * {@link IOException} as a failing device would ({@link #failNextSync} only once). A failed sync
 * still flushes, since the bytes may well have reached the disk. Everything else goes to the
 * delegate. Shared by every test that injects I/O faults.
 */
public final class FaultInjectingFileSystem implements FileSystem {
  private final FileSystem real;
  private volatile Predicate<String> failSync = name -> false;
  private volatile Predicate<String> failNextSync = name -> false;
  private volatile Predicate<String> failAppend = name -> false;
  private volatile boolean failRename;
  private volatile boolean failDirectorySync;
  private volatile int faultsInjected;

  public FaultInjectingFileSystem() {
    this(new LocalFileSystem());
  }

  public FaultInjectingFileSystem(FileSystem delegate) {
    this.real = delegate;
  }

  /** Syncs of files whose name matches fail from now on. */
  public void failSyncs(Predicate<String> fileNames) {
    failSync = fileNames;
  }

  /** The next sync of a file whose name matches fails; later syncs succeed. */
  public void failNextSync(Predicate<String> fileNames) {
    failNextSync = fileNames;
  }

  public void failRenames(boolean fail) {
    failRename = fail;
  }

  public void failDirectorySyncs(boolean fail) {
    failDirectorySync = fail;
  }

  /** Appends to files whose name matches fail from now on. */
  public void failAppends(Predicate<String> fileNames) {
    failAppend = fileNames;
  }

  public void heal() {
    failSync = name -> false;
    failNextSync = name -> false;
    failAppend = name -> false;
    failRename = false;
    failDirectorySync = false;
  }

  public int faultsInjected() {
    return faultsInjected;
  }

  private IOException fault(String op, Path path) {
    faultsInjected++;
    return new IOException("injected " + op + " failure on " + path.getFileName());
  }

  private WritableFile wrap(Path path, WritableFile inner) {
    String name = path.getFileName().toString();
    return new WritableFile() {
      @Override
      public void append(byte[] data, int off, int len) throws IOException {
        if (failAppend.test(name)) {
          throw fault("append", path);
        }
        inner.append(data, off, len);
      }

      @Override
      public void append(ByteBuffer data) throws IOException {
        if (failAppend.test(name)) {
          throw fault("append", path);
        }
        inner.append(data);
      }

      @Override
      public void flush() throws IOException {
        inner.flush();
      }

      @Override
      public void sync() throws IOException {
        boolean once = failNextSync.test(name);
        if (once || failSync.test(name)) {
          if (once) {
            failNextSync = n -> false;
          }
          inner.flush();
          throw fault("sync", path);
        }
        inner.sync();
      }

      @Override
      public long size() {
        return inner.size();
      }

      @Override
      public void close() throws IOException {
        inner.close();
      }
    };
  }

  @Override
  public WritableFile create(Path path, IoTag tag) throws IOException {
    return wrap(path, real.create(path, tag));
  }

  @Override
  public WritableFile openForAppend(Path path, long length, IoTag tag) throws IOException {
    return wrap(path, real.openForAppend(path, length, tag));
  }

  @Override
  public ReadableFile openReadable(Path path) throws IOException {
    return real.openReadable(path);
  }

  @Override
  public void rename(Path source, Path target) throws IOException {
    if (failRename) {
      throw fault("rename", source);
    }
    real.rename(source, target);
  }

  @Override
  public boolean delete(Path path) throws IOException {
    return real.delete(path);
  }

  @Override
  public boolean exists(Path path) {
    return real.exists(path);
  }

  @Override
  public long size(Path path) throws IOException {
    return real.size(path);
  }

  @Override
  public List<String> list(Path dir) throws IOException {
    return real.list(dir);
  }

  @Override
  public void createDirectories(Path dir) throws IOException {
    real.createDirectories(dir);
  }

  @Override
  public void syncDirectory(Path dir) throws IOException {
    if (failDirectorySync) {
      throw fault("directory sync", dir);
    }
    real.syncDirectory(dir);
  }

  @Override
  public AutoCloseable lock(Path lockFile) throws IOException {
    return real.lock(lockFile);
  }

  @Override
  public IoStats ioStats() {
    return real.ioStats();
  }
}
