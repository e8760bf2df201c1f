package dev.cairn.fs;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.SplittableRandom;
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
