package dev.cairn.wal;

import static dev.cairn.wal.LogFormat.BLOCK_BYTES;
import static dev.cairn.wal.LogFormat.FIRST;
import static dev.cairn.wal.LogFormat.FULL;
import static dev.cairn.wal.LogFormat.HEADER_BYTES;
import static dev.cairn.wal.LogFormat.LAST;
import static dev.cairn.wal.LogFormat.MIDDLE;

import dev.cairn.fs.WritableFile;
import dev.cairn.util.Checksums;
import dev.cairn.util.Coding;
import java.io.IOException;

/**
 * Appends records to a log in the block framing of docs/log_format.md: each record is cut into
 * fragments that never cross a 32 KiB block boundary, each behind a 7-byte header carrying a
 * masked CRC32C of its type and payload.
 *
 * <p>Bytes go through the {@link WritableFile}'s buffer; {@link #flush()} hands them to the
 * operating system and {@link #sync()} makes them durable. Not thread-safe: the engine
 * serialises writers. After an {@link IOException} the log may end in a partial record, so the
 * caller must stop appending to it (the engine latches the error); a reader will see that
 * partial record as a torn tail.
 */
public final class LogWriter implements AutoCloseable {
  private static final byte[] TRAILER_ZEROS = new byte[HEADER_BYTES - 1];

  private final WritableFile file;
  private final byte[] header = new byte[HEADER_BYTES];
  private final byte[] typeByte = new byte[1];
  /** Bytes already used in the current block. */
  private int blockOffset;

  /** A writer appending at the file's current size (0 for a freshly created file). */
  public LogWriter(WritableFile file) {
    this(file, file.size());
  }

  /**
   * A writer continuing a log that already holds {@code existingLength} bytes, which must end
   * with an intact record (truncate a torn tail away first).
   */
  public LogWriter(WritableFile file, long existingLength) {
    if (existingLength < 0) {
      throw new IllegalArgumentException("existingLength must not be negative: " + existingLength);
    }
    this.file = file;
    this.blockOffset = (int) (existingLength % BLOCK_BYTES);
  }

  /** Appends one record (any length, including 0) as one or more fragments. */
  public void addRecord(byte[] record) throws IOException {
    int off = 0;
    int left = record.length;
    boolean begin = true;
    do {
      int leftInBlock = BLOCK_BYTES - blockOffset;
      if (leftInBlock < HEADER_BYTES) {
        // No room for a header: zero the trailer so that a reader can tell it from a fragment.
        if (leftInBlock > 0) {
          file.append(TRAILER_ZEROS, 0, leftInBlock);
        }
        blockOffset = 0;
      }
      int available = BLOCK_BYTES - blockOffset - HEADER_BYTES;
      int fragmentLength = Math.min(left, available);
      boolean end = fragmentLength == left;
      int type = begin && end ? FULL : begin ? FIRST : end ? LAST : MIDDLE;
      emitFragment(type, record, off, fragmentLength);
      off += fragmentLength;
      left -= fragmentLength;
      begin = false;
    } while (left > 0);
  }

  private void emitFragment(int type, byte[] data, int off, int len) throws IOException {
    assert len <= LogFormat.MAX_PAYLOAD_BYTES && blockOffset + HEADER_BYTES + len <= BLOCK_BYTES
        : "fragment of " + len + " bytes at block offset " + blockOffset + " crosses its block";
    typeByte[0] = (byte) type;
    int crc = Checksums.crc32c(typeByte, 1, data, off, len);
    header[6] = (byte) type;
    Coding.putFixed32(header, 0, Checksums.mask(crc));
    header[4] = (byte) len;
    header[5] = (byte) (len >>> 8);
    file.append(header, 0, HEADER_BYTES);
    file.append(data, off, len);
    blockOffset += HEADER_BYTES + len;
  }

  /** Hands buffered bytes to the operating system (they survive a process crash). */
  public void flush() throws IOException {
    file.flush();
  }

  /** Flushes and forces the log to the device (it survives power loss). */
  public void sync() throws IOException {
    file.sync();
  }

  /** Bytes in the log, including buffered ones. */
  public long size() {
    return file.size();
  }

  /** Flushes and closes the file; does not sync. */
  @Override
  public void close() throws IOException {
    file.close();
  }
}
