package dev.cairn.fs;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What counts as a seek, that everything else passes through, and that counting is thread-safe. */
class SeekDelayFileSystemTest {
  private static final int FILE_BYTES = 64 * 1024;
  private static final int CHUNK = 4096;

  @TempDir Path dir;
  private final SeekDelayFileSystem fs = SeekDelayFileSystem.onTables(new LocalFileSystem(), Duration.ZERO);

  @Test
  void aWalkThroughATableSeeksOnceAndReturnsTheBytes() throws IOException {
    byte[] content = write(FileNames.table(7));
    try (ReadableFile f = fs.openReadable(dir.resolve(FileNames.table(7)))) {
      byte[] got = new byte[FILE_BYTES];
      for (int off = 0; off < FILE_BYTES; off += CHUNK) {
        f.read(off, ByteBuffer.wrap(got, off, CHUNK), IoTag.USER_READ);
      }
      assertArrayEquals(content, got);
      assertEquals(FILE_BYTES, f.size());
    }
    assertEquals(1, fs.seeks(), "only the first read of a sequential walk seeks");
  }

  @Test
  void everyReadNotStartingAtThePreviousEndIsASeek() throws IOException {
    write(FileNames.table(1));
    try (ReadableFile f = fs.openReadable(dir.resolve(FileNames.table(1)))) {
      f.readFully(8192, 100, IoTag.USER_READ); // seek 1 (first read)
      f.readFully(8292, 100, IoTag.USER_READ); // sequential
      f.readFully(0, 100, IoTag.USER_READ); // seek 2 (backwards)
      f.readFully(100, 50, IoTag.USER_READ); // sequential
      f.readFully(200, 50, IoTag.USER_READ); // seek 3 (a gap of 50 bytes)
      f.readFully(200, 50, IoTag.USER_READ); // seek 4 (the same block again)
    }
    assertEquals(4, fs.seeks());
  }

  @Test
  void filesOtherThanTablesAndWritesPassThroughUncounted() throws IOException {
    String log = FileNames.log(3);
    byte[] content = write(log);
    try (ReadableFile f = fs.openReadable(dir.resolve(log))) {
      assertArrayEquals(Arrays.copyOfRange(content, 5000, 5100), f.readFully(5000, 100, IoTag.OTHER));
      f.readFully(0, 100, IoTag.OTHER);
    }
    write(FileNames.table(2));
    assertEquals(0, fs.seeks(), "writes and log reads are not seeks");
    assertEquals(2L * FILE_BYTES, fs.ioStats().bytesWritten(IoPurpose.OTHER), "the delegate's counters are shared");
  }

  @Test
  void aDelayIsServedAndCounted() throws IOException {
    SeekDelayFileSystem slow = SeekDelayFileSystem.onTables(new LocalFileSystem(), Duration.ofMillis(1));
    write(FileNames.table(4));
    try (ReadableFile f = slow.openReadable(dir.resolve(FileNames.table(4)))) {
      for (int i = 0; i < 5; i++) {
        f.readFully((long) (4 - i) * CHUNK, CHUNK, IoTag.USER_READ);
      }
    }
    assertEquals(5, slow.seeks());
    assertEquals(Duration.ofMillis(1), slow.seekDelay());
    assertThrows(IllegalArgumentException.class,
        () -> SeekDelayFileSystem.onTables(new LocalFileSystem(), Duration.ofMillis(-1)));
  }

  @Test
  void anInterruptedReaderStillWaitsAndKeepsItsInterrupt() throws IOException {
    SeekDelayFileSystem slow = SeekDelayFileSystem.onTables(new LocalFileSystem(), Duration.ofMillis(1));
    byte[] content = write(FileNames.table(5));
    try (ReadableFile f = slow.openReadable(dir.resolve(FileNames.table(5)))) {
      Thread.currentThread().interrupt();
      try {
        assertArrayEquals(Arrays.copyOfRange(content, 0, 100), f.readFully(0, 100, IoTag.USER_READ));
        assertEquals(true, Thread.currentThread().isInterrupted(), "the caller's interrupt is kept");
      } finally {
        Thread.interrupted();
      }
    }
    assertEquals(1, slow.seeks());
  }

  /**
   * Threads walking their own tables sequentially (one seek each) while others read one shared
   * table at scattered offsets: the count must come out exact whatever the interleaving.
   */
  @Test
  void countsAreExactUnderConcurrentReaders() throws Exception {
    long seed = System.nanoTime();
    int walkers = 4;
    int scatterers = 3;
    int scatteredReads = 200;
    for (int t = 0; t < walkers; t++) {
      write(FileNames.table(100 + t));
    }
    write(FileNames.table(99));
    AtomicReference<Throwable> failure = new AtomicReference<>();
    List<Thread> threads = new ArrayList<>();
    try (ReadableFile shared = fs.openReadable(dir.resolve(FileNames.table(99)))) {
      for (int t = 0; t < walkers; t++) {
        Path table = dir.resolve(FileNames.table(100 + t));
        threads.add(new Thread(() -> {
          try (ReadableFile f = fs.openReadable(table)) {
            for (int off = 0; off < FILE_BYTES; off += CHUNK) {
              f.readFully(off, CHUNK, IoTag.USER_READ);
            }
          } catch (Throwable e) {
            failure.compareAndSet(null, e);
          }
        }));
      }
      for (int t = 0; t < scatterers; t++) {
        SplittableRandom random = new SplittableRandom(seed + t);
        threads.add(new Thread(() -> {
          try {
            for (int i = 0; i < scatteredReads; i++) {
              // Odd starts, 15 bytes: every read ends at an even offset, so none starts where one ended.
              shared.readFully(2L * random.nextInt(FILE_BYTES / 2 - 64) + 1, 15, IoTag.USER_READ);
            }
          } catch (Throwable e) {
            failure.compareAndSet(null, e);
          }
        }));
      }
      threads.forEach(Thread::start);
      for (Thread t : threads) {
        t.join();
      }
    }
    assertEquals(null, failure.get(), "seed " + seed);
    assertEquals(walkers + (long) scatterers * scatteredReads, fs.seeks(), "seed " + seed);
  }

  private byte[] write(String name) throws IOException {
    byte[] content = new byte[FILE_BYTES];
    new SplittableRandom(name.hashCode()).nextBytes(content);
    try (WritableFile out = fs.create(dir.resolve(name), IoTag.OTHER)) {
      out.append(content, 0, content.length);
      out.flush();
    }
    return content;
  }
}
