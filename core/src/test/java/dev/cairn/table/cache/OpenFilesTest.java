package dev.cairn.table.cache;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cairn.fs.FileSystem;
import dev.cairn.fs.ForwardingFileSystem;
import dev.cairn.fs.IoTag;
import dev.cairn.fs.LocalFileSystem;
import dev.cairn.fs.ReadableFile;
import dev.cairn.fs.WritableFile;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The open-file bound: descriptors close under it, never under a read, and open again on the next. */
class OpenFilesTest {
  @TempDir Path dir;

  /** Counts the descriptors open, and holds a read of {@code held} until {@code release}. */
  private static final class CountingFiles extends ForwardingFileSystem {
    final AtomicInteger open = new AtomicInteger();
    volatile String held;
    final CountDownLatch inRead = new CountDownLatch(1);
    final CountDownLatch release = new CountDownLatch(1);

    CountingFiles(FileSystem delegate) {
      super(delegate);
    }

    @Override
    public ReadableFile openReadable(Path path) throws IOException {
      ReadableFile f = super.openReadable(path);
      open.incrementAndGet();
      String name = path.getFileName().toString();
      return new ForwardingFileSystem.ForwardingReadableFile(f) {
        @Override
        public int read(long position, ByteBuffer dst, IoTag tag) throws IOException {
          if (name.equals(held)) {
            inRead.countDown();
            await(release);
          }
          return super.read(position, dst, tag);
        }

        @Override
        public void close() throws IOException {
          open.decrementAndGet();
          super.close();
        }
      };
    }
  }

  /** A read of file {@code name} on its own thread, held inside the file system until {@link #finish}. */
  private static final class HeldRead implements AutoCloseable {
    private final CountingFiles fs;
    private final ExecutorService thread = Executors.newSingleThreadExecutor();
    private final Future<byte[]> read;

    HeldRead(CountingFiles fs, ReopeningFile file, String name, int length) {
      this.fs = fs;
      fs.held = name;
      read = thread.submit(() -> readAll(file, length));
      await(fs.inRead);
    }

    /** Lets the read go on; returns what it read. */
    byte[] finish() throws Exception {
      fs.release.countDown();
      return read.get(30, TimeUnit.SECONDS);
    }

    @Override
    public void close() {
      fs.release.countDown();
      thread.shutdownNow();
    }
  }

  private static void await(CountDownLatch latch) {
    try {
      assertTrue(latch.await(30, TimeUnit.SECONDS), "timed out");
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError(e);
    }
  }

  private static byte[] contents(int i) {
    return ("file " + i + " ").repeat(10).getBytes(StandardCharsets.UTF_8);
  }

  private Path write(int i) throws IOException {
    Path p = dir.resolve("f" + i);
    try (WritableFile f = new LocalFileSystem().create(p, IoTag.FLUSH)) {
      f.append(contents(i));
      f.sync();
    }
    return p;
  }

  private static byte[] readAll(ReadableFile f, int length) throws IOException {
    return f.readFully(0, length, IoTag.USER_READ);
  }

  @Test
  void descriptorsCloseUnderTheBoundAndOpenAgainOnTheNextRead() throws IOException {
    CountingFiles fs = new CountingFiles(new LocalFileSystem());
    OpenFiles bound = new OpenFiles(2);
    List<ReopeningFile> files = new ArrayList<>();
    for (int i = 0; i < 5; i++) {
      files.add(ReopeningFile.open(fs, write(i), bound));
      assertTrue(fs.open.get() <= 2, fs.open.get() + " descriptors open against a bound of 2");
    }
    assertEquals(2, bound.count());
    for (int pass = 0; pass < 2; pass++) {
      for (int i = 0; i < 5; i++) {
        assertArrayEquals(contents(i), readAll(files.get(i), contents(i).length), "file " + i);
        assertTrue(fs.open.get() <= 2, fs.open.get() + " descriptors open against a bound of 2");
      }
    }
    assertTrue(bound.reopens() >= 5, bound.reopens() + " reopens");
    for (ReopeningFile f : files) {
      f.close();
    }
    assertEquals(0, fs.open.get(), "closing every file closes every descriptor");
    assertEquals(0, bound.count());
    assertThrows(ClosedChannelException.class, () -> readAll(files.get(0), 1), "a closed file reads no more");
  }

  @Test
  void aFileInUseStaysOpenPastTheBoundAndClosesForGoodOnlyAfterItsRead() throws Exception {
    CountingFiles fs = new CountingFiles(new LocalFileSystem());
    OpenFiles bound = new OpenFiles(1);
    ReopeningFile busy = ReopeningFile.open(fs, write(0), bound);
    try (HeldRead read = new HeldRead(fs, busy, "f0", contents(0).length)) {
      ReopeningFile other = ReopeningFile.open(fs, write(1), bound);
      assertTrue(busy.isOpen(), "a file a read is using is not closed for the bound");
      assertEquals(2, fs.open.get());
      busy.close(); // for good, while the read is in flight
      assertEquals(2, fs.open.get(), "the descriptor outlives the close while a read uses it");
      assertArrayEquals(contents(0), read.finish(), "the read in flight completes");
      assertEquals(1, fs.open.get(), "the read's end closed the descriptor");
      assertFalse(busy.isOpen());
      assertEquals(1, bound.count(), "a file closed for good leaves the bound");
      other.close();
    }
    assertEquals(0, fs.open.get());
  }

  @Test
  void aFileKeptOpenPastTheBoundForAReadClosesWhenTheReadEnds() throws Exception {
    CountingFiles fs = new CountingFiles(new LocalFileSystem());
    OpenFiles bound = new OpenFiles(1);
    ReopeningFile busy = ReopeningFile.open(fs, write(0), bound);
    try (HeldRead read = new HeldRead(fs, busy, "f0", contents(0).length)) {
      ReopeningFile other = ReopeningFile.open(fs, write(1), bound);
      assertEquals(2, bound.count(), "the busy file stays open past the bound");
      assertArrayEquals(contents(0), read.finish());
      assertEquals(1, bound.count(), "the read's end brought the files back within the bound");
      assertEquals(1, fs.open.get());
      assertArrayEquals(contents(0), readAll(busy, contents(0).length), "and the file still reads");
      busy.close();
      other.close();
    }
    assertEquals(0, fs.open.get());
  }

  @Test
  void concurrentReadersAlwaysReadTheirFilesBytesWhileTheBoundClosesAndReopens() throws Exception {
    CountingFiles fs = new CountingFiles(new LocalFileSystem());
    OpenFiles bound = new OpenFiles(3);
    int n = 12;
    List<ReopeningFile> files = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      files.add(ReopeningFile.open(fs, write(i), bound));
    }
    ExecutorService pool = Executors.newFixedThreadPool(4);
    try {
      List<Future<Integer>> readers = new ArrayList<>();
      for (int t = 0; t < 4; t++) {
        readers.add(pool.submit(() -> {
          int reads = 0;
          for (int k = 0; k < 5_000; k++) {
            int i = ThreadLocalRandom.current().nextInt(n);
            assertArrayEquals(contents(i), readAll(files.get(i), contents(i).length), "file " + i);
            reads++;
          }
          return reads;
        }));
      }
      for (Future<Integer> r : readers) {
        assertEquals(5_000, r.get(60, TimeUnit.SECONDS));
      }
    } finally {
      pool.shutdownNow();
    }
    assertTrue(bound.count() <= 3, bound.count() + " open with no read in flight, against a bound of 3");
    assertEquals(bound.count(), fs.open.get(), "the bound counts every descriptor open");
    assertTrue(bound.reopens() > 0);
    for (ReopeningFile f : files) {
      f.close();
    }
    assertEquals(0, fs.open.get());
  }
}
