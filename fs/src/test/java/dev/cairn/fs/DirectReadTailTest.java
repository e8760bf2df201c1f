package dev.cairn.fs;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cairn.fs.fake.InMemoryFile;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Guards direct (O_DIRECT) reads of a table's last, partial block: the aligned read returns short
 * at end of file, and reading on from there would be an unaligned read the kernel rejects. Every
 * table's footer is in that block, so without this no table opens under {@code --direct-io}.
 */
class DirectReadTailTest {
  private static final int FILE_BYTES = 3 * 4096 + 1234;

  @TempDir Path dir;

  @Test
  void directReadsOfTheUnalignedTailStopAtEndOfFile() throws IOException {
    Path path = dir.resolve("000001.sst");
    byte[] content = writeRandomFile(path, 7);
    LocalFileSystem fs = new LocalFileSystem(true);
    try (ReadableFile f = fs.openReadable(path)) {
      assertArrayEquals(Arrays.copyOfRange(content, FILE_BYTES - 48, FILE_BYTES),
          f.readFully(FILE_BYTES - 48, 48, IoTag.USER_READ), "the footer");
      ByteBuffer past = ByteBuffer.allocate(1000);
      assertEquals(234, f.read(3 * 4096 + 1000, past, IoTag.USER_READ), "a read past the end returns what exists");
      assertArrayEquals(Arrays.copyOfRange(content, 5000, 9000), f.readFully(5000, 4000, IoTag.USER_READ));
      assertEquals(0, f.read(FILE_BYTES, ByteBuffer.allocate(10), IoTag.USER_READ), "at the end: nothing");
    }
  }

  @Test
  void alignedReadsLandInTheCallersBufferAndUnalignedOnesStayCorrect() throws IOException {
    Path path = dir.resolve("000002.sst");
    byte[] content = writeRandomFile(path, 8);
    LocalFileSystem fs = new LocalFileSystem(true);
    try (ReadableFile f = fs.openReadable(path)) {
      int alignment = f.directReadAlignment();
      assertEquals(0, alignment % 4096, "O_DIRECT alignment " + alignment);
      ByteBuffer aligned = ByteBuffer.allocateDirect(2 * alignment + 8 * 4096)
          .alignedSlice(alignment).limit(alignment * ((FILE_BYTES + alignment - 1) / alignment));
      assertEquals(FILE_BYTES, f.read(0, aligned, IoTag.USER_READ), "the whole file, tail short");
      byte[] got = new byte[FILE_BYTES];
      aligned.flip().get(got);
      assertArrayEquals(content, got);
      // Unaligned reads share the thread's scratch buffer: each still returns its own bytes.
      assertArrayEquals(Arrays.copyOfRange(content, 100, 4200), f.readFully(100, 4100, IoTag.USER_READ));
      assertArrayEquals(Arrays.copyOfRange(content, 9000, 9010), f.readFully(9000, 10, IoTag.USER_READ));
    }
    assertEquals(0, new InMemoryFile().directReadAlignment(), "page-cache files say 0");
  }

  /**
   * Block compaction appends to a table while readers read it. A direct read over the table's
   * unaligned tail ends short at the end of the file; if the file grows before the reader asks
   * for its size, the reader must still stop there, not read on from the unaligned end (seen once
   * in ModelTest, BLOCK/IMMEDIATE: "Channel position (27097) is not a multiple of the block size").
   * The race is timing-dependent, so this reads the moving tail many times while a writer appends.
   */
  @Test
  void directReadsOfATailThatGrowsDuringTheReadStopAtTheEndTheyReached() throws Exception {
    Path path = dir.resolve("000003.sst");
    writeRandomFile(path, 9);
    LocalFileSystem fs = new LocalFileSystem(true);
    AtomicBoolean stop = new AtomicBoolean();
    AtomicLong written = new AtomicLong(FILE_BYTES);
    byte[] chunk = new byte[777]; // odd-sized appends keep the end unaligned
    Thread appender = new Thread(() -> {
      try (FileChannel out = FileChannel.open(path,
          StandardOpenOption.WRITE, StandardOpenOption.APPEND)) {
        while (!stop.get() && written.get() < (64 << 20)) {
          out.write(ByteBuffer.wrap(chunk));
          written.addAndGet(chunk.length);
        }
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    });
    appender.start();
    try (ReadableFile f = fs.openReadable(path)) {
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(2);
      int reads = 0;
      while (System.nanoTime() < deadline && appender.isAlive()) {
        long end = written.get();
        // 2,000 bytes starting just before a known end: the aligned span reaches past it.
        long at = Math.max(0, end - 100);
        int got = f.read(at, ByteBuffer.allocate(2000), IoTag.USER_READ);
        assertTrue(got >= 100 && got <= 2000, "read " + got + " bytes at " + at);
        reads++;
      }
      assertTrue(reads > 0, "the loop read");
    } finally {
      stop.set(true);
      appender.join();
    }
  }

  /** Writes {@link #FILE_BYTES} random bytes to {@code path} and returns them. */
  private static byte[] writeRandomFile(Path path, long seed) throws IOException {
    byte[] content = new byte[FILE_BYTES];
    new SplittableRandom(seed).nextBytes(content);
    try (WritableFile out = new LocalFileSystem().create(path, IoTag.OTHER)) {
      out.append(content, 0, content.length);
      out.sync();
    }
    return content;
  }
}
