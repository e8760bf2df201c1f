package dev.cairn.fs;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/**
 * A write or sync that fails breaks the file: nothing it buffered is written again (a second copy
 * after the part the failed write left would read as damage in the middle of a log), and no
 * later sync claims durability.
 */
class BufferedWritableFileTest {
  /** A device that takes {@code room} bytes, the write that crosses it writing what fits and failing. */
  private static class FillingSink implements BufferedWritableFile.Sink {
    final ByteArrayOutputStream disk = new ByteArrayOutputStream();
    long room;
    boolean failSync;
    int syncs;
    boolean closed;

    FillingSink(long room) {
      this.room = room;
    }

    @Override
    public void write(byte[] data, int off, int len) throws IOException {
      int fits = (int) Math.min(len, room);
      disk.write(data, off, fits);
      room -= fits;
      if (fits < len) {
        throw new IOException("No space left on device");
      }
    }

    @Override
    public void sync() throws IOException {
      if (failSync) {
        throw new IOException("Input/output error");
      }
      syncs++;
    }

    @Override
    public void close() {
      closed = true;
    }
  }

  private static BufferedWritableFile file(FillingSink sink) {
    return new BufferedWritableFile(sink, "000007.log", 0, 64, new IoStats(), IoTag.WAL);
  }

  private static byte[] bytes(int n, int fill) {
    byte[] b = new byte[n];
    Arrays.fill(b, (byte) fill);
    return b;
  }

  @Test
  void aPartialWriteIsNeverFollowedByTheBufferAgain() throws IOException {
    FillingSink sink = new FillingSink(40);
    BufferedWritableFile f = file(sink);
    f.append(bytes(50, 1), 0, 50);
    assertThrows(IOException.class, f::flush, "the device takes 40 of the 50 bytes");
    sink.room = 1 << 20; // space freed meanwhile
    IOException later = assertThrows(IOException.class, () -> f.append(bytes(10, 2), 0, 10));
    assertTrue(later.getMessage().contains("000007.log"), later.getMessage());
    assertThrows(IOException.class, f::sync);
    f.close();
    assertTrue(sink.closed, "the descriptor is released");
    assertArrayEquals(bytes(40, 1), sink.disk.toByteArray(), "only the failed write's part is on disk");
    assertEquals(0, sink.syncs);
  }

  @Test
  void aFailedSyncIsNeverFollowedByASuccessfulOne() throws IOException {
    FillingSink sink = new FillingSink(1 << 20);
    BufferedWritableFile f = file(sink);
    f.append(bytes(10, 1), 0, 10);
    sink.failSync = true;
    assertThrows(IOException.class, f::sync);
    sink.failSync = false;
    assertThrows(IOException.class, f::sync, "the pages the failed sync lost are not on disk whatever a retry says");
    assertThrows(IOException.class, f::flush);
    f.close();
    assertEquals(0, sink.syncs);
  }

  @Test
  void aWriteThatThrowsAnErrorBreaksTheFileToo() throws IOException {
    FillingSink sink = new FillingSink(1 << 20) {
      @Override
      public void write(byte[] data, int off, int len) {
        throw new OutOfMemoryError("Direct buffer memory");
      }
    };
    BufferedWritableFile f = file(sink);
    f.append(bytes(10, 1), 0, 10);
    assertThrows(OutOfMemoryError.class, f::flush);
    assertThrows(IOException.class, () -> f.append(bytes(10, 2), 0, 10), "the buffer it dropped left a hole");
    assertThrows(IOException.class, f::sync);
    f.close();
    assertEquals(0, sink.syncs);
  }

  @Test
  void aWholeFileWritesItsBufferOnCloseAndSyncs() throws IOException {
    FillingSink sink = new FillingSink(1 << 20);
    BufferedWritableFile f = file(sink);
    f.append(bytes(10, 1), 0, 10);
    f.append(bytes(100, 2), 0, 100); // larger than the buffer: written through
    f.sync();
    f.append(bytes(5, 3), 0, 5);
    assertEquals(115, f.size());
    f.close();
    byte[] expected = new byte[115];
    System.arraycopy(bytes(10, 1), 0, expected, 0, 10);
    System.arraycopy(bytes(100, 2), 0, expected, 10, 100);
    System.arraycopy(bytes(5, 3), 0, expected, 110, 5);
    assertArrayEquals(expected, sink.disk.toByteArray());
    assertEquals(1, sink.syncs);
  }
}
