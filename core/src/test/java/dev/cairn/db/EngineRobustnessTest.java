package dev.cairn.db;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cairn.BackgroundErrorException;
import dev.cairn.Cairn;
import dev.cairn.Options;
import dev.cairn.ReadOptions;
import dev.cairn.WriteOptions;
import dev.cairn.fs.ForwardingFileSystem;
import dev.cairn.fs.WritableFile;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Regression tests for failures of the engine's orchestration found in review: each test is named
 * after what it guards, and each failed before its fix.
 */
@Timeout(value = 2, unit = TimeUnit.MINUTES)
class EngineRobustnessTest {
  @TempDir Path dir;

  static byte[] b(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  /** A FileSystem whose WAL files run {@code hook} before each append of more than 1000 bytes. */
  static final class WalHook extends ForwardingFileSystem {
    final AtomicBoolean armed = new AtomicBoolean();
    volatile Runnable onBigAppend = () -> { };
    volatile Runnable onFlush = () -> { };

    @Override
    protected WritableFile wrap(Path path, WritableFile file) {
      if (!path.getFileName().toString().endsWith(".log")) {
        return file;
      }
      return new ForwardingWritableFile(file) {
        @Override
        public void append(byte[] data, int off, int len) throws IOException {
          if (len > 1000 && armed.compareAndSet(true, false)) {
            onBigAppend.run();
          }
          super.append(data, off, len);
        }

        @Override
        public void flush() throws IOException {
          super.flush();
          onFlush.run();
        }
      };
    }
  }

  @Test
  void anInterruptedWriterDoesNotDisableTheEngine() {
    try (Cairn db = Cairn.open(dir, Options.defaults())) {
      db.put(b("a"), b("1"));
      Thread.currentThread().interrupt();
      try {
        db.put(b("b"), b("2"), WriteOptions.SYNC);
      } finally {
        Thread.interrupted();
      }
      db.put(b("c"), b("3"));
      assertArrayEquals(b("2"), db.get(b("b")));
      assertArrayEquals(b("3"), db.get(b("c")));
    }
  }

  @Test
  void anInterruptedReaderDoesNotBreakTheTableForOthers() {
    try (Cairn db = Cairn.open(dir, Options.defaults())) {
      for (int i = 0; i < 1000; i++) {
        db.put(b("k" + i), b("v" + i));
      }
      db.flush();
      ReadOptions uncached = new ReadOptions(null, null, null, false);
      Thread.currentThread().interrupt();
      try {
        assertArrayEquals(b("v500"), db.get(b("k500"), uncached));
        assertTrue(Thread.currentThread().isInterrupted(), "the caller's interrupt status is kept");
      } finally {
        Thread.interrupted();
      }
      assertArrayEquals(b("v900"), db.get(b("k900"), uncached));
      db.compactRange(null, null);
      db.put(b("x"), b("y"));
      assertArrayEquals(b("v1"), db.get(b("k1")));
    }
  }

  @Test
  void anErrorInTheGroupLeaderLatchesInsteadOfWedgingTheWriterQueue() throws Exception {
    WalHook fs = new WalHook();
    fs.onBigAppend = () -> {
      throw new OutOfMemoryError("injected");
    };
    Cairn db = Cairn.open(dir, Options.builder().fileSystem(fs).build());
    db.put(b("a"), b("1"));
    fs.armed.set(true);
    assertThrows(OutOfMemoryError.class, () -> db.put(b("big"), new byte[4000]));
    ExecutorService ex = Executors.newSingleThreadExecutor();
    try {
      Future<?> next = ex.submit(() -> db.put(b("c"), b("3")));
      Throwable t = assertThrows(java.util.concurrent.ExecutionException.class, () -> next.get(30, TimeUnit.SECONDS));
      assertTrue(t.getCause() instanceof BackgroundErrorException, "later writes are refused: " + t.getCause());
    } finally {
      ex.shutdownNow();
      db.close();
    }
    try (Cairn reopened = Cairn.open(dir, Options.defaults())) {
      assertArrayEquals(b("1"), reopened.get(b("a")));
    }
  }

  @Test
  void anUncheckedFailureAfterTheWalAppendLatchesSoNoSequenceIsReused() {
    WalHook fs = new WalHook();
    AtomicInteger flushes = new AtomicInteger();
    AtomicBoolean failNextFlush = new AtomicBoolean();
    fs.onFlush = () -> {
      flushes.incrementAndGet();
      if (failNextFlush.compareAndSet(true, false)) {
        throw new UncheckedIOException(new IOException("injected"));
      }
    };
    Cairn db = Cairn.open(dir, Options.builder().fileSystem(fs).build());
    db.put(b("k"), b("v1"));
    failNextFlush.set(true);
    assertThrows(UncheckedIOException.class, () -> db.put(b("k"), b("failed")));
    assertThrows(BackgroundErrorException.class, () -> db.put(b("k"), b("after")));
    db.close();
    try (Cairn reopened = Cairn.open(dir, Options.defaults())) {
      byte[] v = reopened.get(b("k"));
      assertTrue(java.util.Arrays.equals(v, b("v1")) || java.util.Arrays.equals(v, b("failed")),
          "the value is the acknowledged one or the failed write that reached the log, never a later one");
    }
  }

  /**
   * Waits until {@code thread} is parked inside a method of {@code owner} (or fails at the
   * deadline, or when the thread ends first): proof that it blocked there, which a sleep cannot
   * give.
   */
  private static void awaitWaitingIn(Thread thread, Class<?> owner, Duration timeout) throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (true) {
      Thread.State state = thread.getState();
      boolean parked = state == Thread.State.WAITING || state == Thread.State.TIMED_WAITING;
      if (parked && Arrays.stream(thread.getStackTrace()).anyMatch(f -> f.getClassName().equals(owner.getName()))) {
        return;
      }
      assertTrue(thread.isAlive(), thread.getName() + " ended without waiting in " + owner.getSimpleName());
      assertTrue(System.nanoTime() < deadline,
          thread.getName() + " never waited in " + owner.getSimpleName() + ": " + state);
      Thread.sleep(1);
    }
  }

  @Test
  void closeWaitsForAGroupCommitInFlight() throws Exception {
    WalHook fs = new WalHook();
    CountDownLatch inAppend = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    fs.onBigAppend = () -> {
      inAppend.countDown();
      try {
        release.await();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    };
    Cairn db = Cairn.open(dir, Options.builder().fileSystem(fs).build());
    db.put(b("a"), b("1"));
    fs.armed.set(true);
    ExecutorService ex = Executors.newFixedThreadPool(2);
    try {
      Future<?> writer = ex.submit(() -> db.put(b("big"), new byte[4000]));
      assertTrue(inAppend.await(10, TimeUnit.SECONDS));
      Thread closer = new Thread(db::close, "closer");
      closer.start();
      awaitWaitingIn(closer, InFlightCalls.class, Duration.ofSeconds(10));
      assertTrue(closer.isAlive(), "close must wait while a leader is appending to the log");
      release.countDown();
      writer.get(10, TimeUnit.SECONDS);
      closer.join(TimeUnit.SECONDS.toMillis(10));
      assertFalse(closer.isAlive(), "close finished once the append did");
    } finally {
      release.countDown();
      ex.shutdownNow();
    }
    Options strict = Options.builder().walRecoveryMode(Options.WalRecoveryMode.ABSOLUTE_CONSISTENCY).build();
    try (Cairn reopened = Cairn.open(dir, strict)) {
      assertArrayEquals(new byte[4000], reopened.get(b("big")), "a clean close leaves no torn record");
    }
  }

  @Test
  void aNewLogsDirectoryEntryIsSyncedBeforeASyncedWriteToItIsAcknowledged() {
    List<String> events = new CopyOnWriteArrayList<>();
    ForwardingFileSystem fs = new ForwardingFileSystem() {
      @Override
      protected WritableFile wrap(Path path, WritableFile file) {
        String name = path.getFileName().toString();
        events.add("create " + name);
        return new ForwardingWritableFile(file) {
          @Override
          public void sync() throws IOException {
            super.sync();
            events.add("sync " + name);
          }
        };
      }

      @Override
      public void syncDirectory(Path d) throws IOException {
        super.syncDirectory(d);
        events.add("syncDir");
      }
    };
    try (Cairn db = Cairn.open(dir, Options.builder().fileSystem(fs).memtableBytes(64 << 10).build())) {
      int i = 0;
      while (events.stream().filter(e -> e.startsWith("create") && e.endsWith(".log")).count() < 2) {
        db.put(b("k" + i++), new byte[1024]);
      }
      db.put(b("durable"), b("yes"), WriteOptions.SYNC);
      List<String> ev = List.copyOf(events);
      int created = -1;
      for (int j = 0; j < ev.size(); j++) {
        if (ev.get(j).startsWith("create") && ev.get(j).endsWith(".log")) {
          created = j;
        }
      }
      int dirSync = ev.subList(created, ev.size()).indexOf("syncDir");
      assertTrue(dirSync > 0, "the directory is synced after the new log is created: " + ev.subList(created, ev.size()));
    }
  }

  @Test
  void flushIsNotStarvedByWritersThatKeepSwitchingMemtables() throws Exception {
    Options options = Options.builder().memtableBytes(64 << 10).build();
    try (Cairn db = Cairn.open(dir, options)) {
      AtomicBoolean stop = new AtomicBoolean();
      ExecutorService ex = Executors.newFixedThreadPool(3);
      try {
        for (int t = 0; t < 3; t++) {
          int id = t;
          ex.submit(() -> {
            for (int i = 0; !stop.get(); i++) {
              db.put(b("w" + id + "-" + i), new byte[512]);
            }
          });
        }
        Thread.sleep(200);
        Future<?> flush = Executors.newSingleThreadExecutor().submit(db::flush);
        // Before the fix flush() waited until no immutable memtable existed at all, which
        // sustained writers could postpone until they stopped.
        flush.get(60, TimeUnit.SECONDS);
        assertFalse(stop.get());
      } finally {
        stop.set(true);
        ex.shutdown();
        ex.awaitTermination(30, TimeUnit.SECONDS);
      }
    }
  }
}
