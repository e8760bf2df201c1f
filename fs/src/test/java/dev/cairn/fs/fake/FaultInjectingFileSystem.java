package dev.cairn.fs.fake;

import dev.cairn.fs.FileSystem;
import dev.cairn.fs.ForwardingFileSystem;
import dev.cairn.fs.IoTag;
import dev.cairn.fs.LocalFileSystem;
import dev.cairn.fs.WritableFile;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import java.util.function.Predicate;

/**
 * A real filesystem with switchable faults, shared by every test that injects I/O faults.
 *
 * <ul>
 *   <li>I/O errors: once {@link #failSyncs}, {@link #failAppends}, {@link #failRenames} or {@link
 *       #failDirectorySyncs} is armed, those operations throw an {@link IOException} as a failing
 *       device would ({@link #failNextSync} only once). A failed sync still flushes, since the
 *       bytes may well have reached the disk.
 *   <li>Out of space: {@link #limitSpace} lets appends write that many more bytes in total; the
 *       append that crosses the limit writes what fits and throws "No space left on device".
 *   <li>Torn writes: {@link #tearNextAppend} makes the next matching append write half of its
 *       bytes (handed to the OS) and then fail.
 *   <li>Power loss: the filesystem tracks, per file, how many bytes were synced and whether its
 *       creation, rename or deletion was made durable by a directory sync ({@link
 *       DurabilityTracker}). {@link #simulatePowerLoss()} rewrites the files to what a power
 *       loss would leave and powers the filesystem off: every later write-side call fails, and
 *       files opened before stay dead, so the abandoned engine can be closed without writing.
 *       {@link #powerOn()} makes it usable again for the reopen.
 * </ul>
 *
 * Everything else goes to the delegate. Faults are counted per {@link Fault} kind.
 */
public final class FaultInjectingFileSystem extends ForwardingFileSystem {
  /** Kinds of injected faults, for the per-kind counts issue 6 reports. */
  public enum Fault {
    SYNC, APPEND, NO_SPACE, TORN_WRITE, RENAME, DIRECTORY_SYNC, POWER_LOSS
  }

  private final DurabilityTracker tracker;
  /**
   * Write-side calls hold the read lock; {@link #simulatePowerLoss} takes the write lock, so a
   * power loss never lands in the middle of a write.
   */
  private final ReentrantReadWriteLock power = new ReentrantReadWriteLock();
  private final Map<Fault, AtomicLong> counts = new EnumMap<>(Fault.class);

  private volatile Predicate<String> failSync = name -> false;
  private volatile Predicate<String> failNextSync = name -> false;
  private volatile Predicate<String> failAppend = name -> false;
  private volatile Predicate<String> tearNextAppend = name -> false;
  private volatile boolean failRename;
  private volatile boolean failDirectorySync;
  /** {@link #failDirectorySyncsAfterNextRename}: arms {@link #failDirectorySync} at the next rename. */
  private volatile boolean failDirectorySyncAfterRename;
  /** Creations of matching files wait for this gate (see {@link #holdCreates}). */
  private volatile Predicate<String> holdCreate = name -> false;
  private volatile java.util.concurrent.CountDownLatch createGate = new java.util.concurrent.CountDownLatch(0);
  /** Bytes appends may still write; negative means unlimited. Guarded by itself. */
  private final AtomicLong spaceLeft = new AtomicLong(-1);
  /** Incremented at each power loss; a file opened in an earlier epoch is dead. */
  private volatile int epoch;
  private volatile boolean poweredOff;

  public FaultInjectingFileSystem() {
    this(new LocalFileSystem());
  }

  public FaultInjectingFileSystem(FileSystem delegate) {
    super(delegate);
    this.tracker = new DurabilityTracker(delegate);
    for (Fault f : Fault.values()) {
      counts.put(f, new AtomicLong());
    }
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

  /** Directory syncs fail once the next rename succeeded (a failure between a rename and its sync). */
  public void failDirectorySyncsAfterNextRename() {
    failDirectorySyncAfterRename = true;
  }

  /** Appends to files whose name matches fail from now on. */
  public void failAppends(Predicate<String> fileNames) {
    failAppend = fileNames;
  }

  /** The next append to a file whose name matches writes half its bytes, then fails. */
  public void tearNextAppend(Predicate<String> fileNames) {
    tearNextAppend = fileNames;
  }

  /**
   * The device has {@code bytes} left: appends succeed until they total that many bytes, then
   * fail with "No space left on device" (the crossing append writes the bytes that fit).
   */
  public void limitSpace(long bytes) {
    if (bytes < 0) {
      throw new IllegalArgumentException("space must not be negative: " + bytes);
    }
    spaceLeft.set(bytes);
  }

  /**
   * Creations of files whose name matches block until {@link #releaseCreates()}: holds a flush
   * or compaction before its first byte, so that a test can act while it is pending.
   */
  public void holdCreates(Predicate<String> fileNames) {
    createGate = new java.util.concurrent.CountDownLatch(1);
    holdCreate = fileNames;
  }

  public void releaseCreates() {
    holdCreate = name -> false;
    createGate.countDown();
  }

  /** Disarms every fault and lifts the space limit (power stays as it is: see {@link #powerOn}). */
  public void heal() {
    failSync = name -> false;
    failNextSync = name -> false;
    failAppend = name -> false;
    tearNextAppend = name -> false;
    failRename = false;
    failDirectorySync = false;
    failDirectorySyncAfterRename = false;
    spaceLeft.set(-1);
  }

  /**
   * Cuts the power: every file keeps only its synced bytes, files whose creation was not made
   * durable by a directory sync disappear, and undurable renames and deletions are undone. The
   * filesystem then stays off (every write-side call fails) until {@link #powerOn()}; close the
   * abandoned engine in between. Returns the number of files changed.
   */
  public int simulatePowerLoss() throws IOException {
    return simulatePowerLoss(null);
  }

  /**
   * {@link #simulatePowerLoss()}, except that each file still at its durable path keeps a prefix of
   * its unsynced bytes, as long as {@code unsyncedKept} draws (none when null): writeback had put
   * some of them on the device, in order, before the power went. A record cut anywhere, in its
   * header, its payload or between its fragments, is what a log's tail then looks like.
   */
  public int simulatePowerLoss(Random unsyncedKept) throws IOException {
    power.writeLock().lock();
    try {
      poweredOff = true;
      epoch++;
      counts.get(Fault.POWER_LOSS).incrementAndGet();
      return tracker.applyPowerLoss(unsyncedKept);
    } finally {
      power.writeLock().unlock();
    }
  }

  /** Ends a simulated power loss; files opened before it stay unusable. */
  public void powerOn() {
    poweredOff = false;
  }

  /** Total faults injected, of every kind. */
  public long faultsInjected() {
    return counts.values().stream().mapToLong(AtomicLong::get).sum();
  }

  public long faultsInjected(Fault kind) {
    return counts.get(kind).get();
  }

  /** Counts of every kind, in declaration order. */
  public Map<Fault, Long> faultCounts() {
    Map<Fault, Long> out = new EnumMap<>(Fault.class);
    counts.forEach((k, v) -> out.put(k, v.get()));
    return out;
  }

  private IOException fault(Fault kind, String op, Path path) {
    counts.get(kind).incrementAndGet();
    return new IOException("injected " + op + " failure on " + path.getFileName());
  }

  /** Takes the read side of the power lock; throws if the power is off. */
  private void powerUp(Path path, int fileEpoch) throws IOException {
    power.readLock().lock();
    if (poweredOff || fileEpoch != epoch) {
      power.readLock().unlock();
      throw new IOException("power lost: " + path.getFileName() + " is gone with it");
    }
  }

  private void powerDown() {
    power.readLock().unlock();
  }

  private final class FaultyFile implements WritableFile {
    private final Path path;
    private final String name;
    private final WritableFile inner;
    private final DurabilityTracker.Inode inode;
    private final int fileEpoch;

    FaultyFile(Path path, WritableFile inner, DurabilityTracker.Inode inode, int fileEpoch) {
      this.path = path;
      this.name = path.getFileName().toString();
      this.inner = inner;
      this.inode = inode;
      this.fileEpoch = fileEpoch;
    }

    @Override
    public void append(byte[] data, int off, int len) throws IOException {
      append(ByteBuffer.wrap(data, off, len));
    }

    @Override
    public void append(ByteBuffer data) throws IOException {
      powerUp(path, fileEpoch);
      try {
        if (failAppend.test(name)) {
          throw fault(Fault.APPEND, "append", path);
        }
        if (tearNextAppend.test(name)) {
          tearNextAppend = n -> false;
          writePrefix(data, data.remaining() / 2);
          throw fault(Fault.TORN_WRITE, "torn write", path);
        }
        int len = data.remaining();
        long left = spaceLeft.get();
        if (left >= 0) {
          if (len > left) {
            spaceLeft.set(0);
            writePrefix(data, (int) left);
            counts.get(Fault.NO_SPACE).incrementAndGet();
            throw new IOException("No space left on device (injected, writing " + path.getFileName() + ")");
          }
          spaceLeft.addAndGet(-len);
        }
        inner.append(data);
      } finally {
        powerDown();
      }
    }

    /** Writes the first {@code n} bytes of {@code data} and hands them to the OS. */
    private void writePrefix(ByteBuffer data, int n) throws IOException {
      ByteBuffer prefix = data.slice();
      prefix.limit(n);
      inner.append(prefix);
      inner.flush();
    }

    @Override
    public void flush() throws IOException {
      powerUp(path, fileEpoch);
      try {
        inner.flush();
      } finally {
        powerDown();
      }
    }

    @Override
    public void sync() throws IOException {
      powerUp(path, fileEpoch);
      try {
        boolean once = failNextSync.test(name);
        if (once || failSync.test(name)) {
          if (once) {
            failNextSync = n -> false;
          }
          inner.flush();
          throw fault(Fault.SYNC, "sync", path);
        }
        inner.sync();
        synchronized (tracker) {
          tracker.synced(inode, inner.size());
        }
      } finally {
        powerDown();
      }
    }

    @Override
    public long size() {
      return inner.size();
    }

    @Override
    public void close() throws IOException {
      // A dead file must not flush its buffer into the rewritten one; drop it instead.
      power.readLock().lock();
      try {
        if (poweredOff || fileEpoch != epoch) {
          closeWithoutFlushing();
          return;
        }
        inner.close();
      } finally {
        power.readLock().unlock();
      }
    }

    private void closeWithoutFlushing() {
      // The delegate flushes on close; after a power loss those bytes are lost, so the file is
      // closed after truncating back whatever the flush appends.
      try {
        long before = delegate.exists(path) ? delegate.size(path) : -1;
        inner.close();
        if (before >= 0 && delegate.exists(path) && delegate.size(path) > before) {
          delegate.openForAppend(path, before, IoTag.OTHER).close();
        }
      } catch (IOException e) {
        // Nothing to do: the file belongs to a dead process.
      }
    }
  }

  @Override
  public WritableFile create(Path path, IoTag tag) throws IOException {
    if (holdCreate.test(path.getFileName().toString())) {
      // Before taking the power lock, so that a power loss can happen while this waits.
      try {
        createGate.await();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new java.io.InterruptedIOException("interrupted while held");
      }
    }
    powerUp(path, epoch);
    try {
      synchronized (tracker) {
        // Tracker first: it saves the old file's durable bytes before the create truncates them.
        DurabilityTracker.Inode inode = tracker.created(path);
        return new FaultyFile(path, delegate.create(path, tag), inode, epoch);
      }
    } finally {
      powerDown();
    }
  }

  @Override
  public WritableFile openForAppend(Path path, long length, IoTag tag) throws IOException {
    powerUp(path, epoch);
    try {
      synchronized (tracker) {
        DurabilityTracker.Inode inode = tracker.reopened(path, length);
        return new FaultyFile(path, delegate.openForAppend(path, length, tag), inode, epoch);
      }
    } finally {
      powerDown();
    }
  }

  @Override
  public void rename(Path source, Path target) throws IOException {
    powerUp(source, epoch);
    try {
      if (failRename) {
        throw fault(Fault.RENAME, "rename", source);
      }
      synchronized (tracker) {
        tracker.renaming(source, target);
        delegate.rename(source, target);
      }
      if (failDirectorySyncAfterRename) {
        failDirectorySyncAfterRename = false;
        failDirectorySync = true;
      }
    } finally {
      powerDown();
    }
  }

  @Override
  public boolean delete(Path path) throws IOException {
    powerUp(path, epoch);
    try {
      synchronized (tracker) {
        tracker.deleting(path);
        return delegate.delete(path);
      }
    } finally {
      powerDown();
    }
  }

  @Override
  public void createDirectories(Path dir) throws IOException {
    powerUp(dir, epoch);
    try {
      delegate.createDirectories(dir);
    } finally {
      powerDown();
    }
  }

  @Override
  public void syncDirectory(Path dir) throws IOException {
    powerUp(dir, epoch);
    try {
      if (failDirectorySync) {
        throw fault(Fault.DIRECTORY_SYNC, "directory sync", dir);
      }
      delegate.syncDirectory(dir);
      synchronized (tracker) {
        tracker.directorySynced(dir);
      }
    } finally {
      powerDown();
    }
  }
}
