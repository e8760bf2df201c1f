package dev.cairn.cache;

import java.io.BufferedInputStream;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * Reads a {@link BlockCacheTrace} record by record: {@link #next} moves to the next whole record
 * and the accessors describe it. A trace cut short ends at its last whole record; a header that is
 * not a trace's, a version this build does not read, or a record of no known kind is reported
 * with the file and the byte offset, never read past.
 */
public final class BlockCacheTraceReader implements AutoCloseable {
  private final Path path;
  private final DataInputStream in;
  private final byte[] record = new byte[BlockCacheTrace.RECORD_BYTES];
  private final ByteBuffer fields = ByteBuffer.wrap(record);
  private long position;
  private BlockCacheTrace.Kind kind;
  private long fileNumber;
  private long offset;
  private int bytes;
  private long nanos;

  public BlockCacheTraceReader(Path path) throws IOException {
    this.path = path;
    InputStream stream = Files.newInputStream(path);
    this.in = new DataInputStream(new BufferedInputStream(stream, 1 << 20));
    try {
      byte[] magic = new byte[BlockCacheTrace.MAGIC.length];
      in.readFully(magic);
      if (!Arrays.equals(magic, BlockCacheTrace.MAGIC)) {
        throw new IOException(path + " is not a block cache trace: its first bytes are not CAIRNBCT");
      }
      int version = in.readInt();
      if (version != BlockCacheTrace.VERSION) {
        throw new IOException("block cache trace " + path + " has format version " + version
            + "; this build reads version " + BlockCacheTrace.VERSION);
      }
    } catch (EOFException e) {
      in.close();
      throw new IOException(path + " is not a block cache trace: shorter than its header", e);
    } catch (IOException e) {
      in.close();
      throw e;
    }
    this.position = BlockCacheTrace.HEADER_BYTES;
  }

  /** Moves to the next record; false at the end of the trace (or of its last whole record). */
  public boolean next() throws IOException {
    int read = in.readNBytes(record, 0, record.length);
    if (read < record.length) {
      return false;
    }
    BlockCacheTrace.Kind k = BlockCacheTrace.Kind.of(record[0] & 0xff);
    if (k == null) {
      throw new IOException("block cache trace " + path + ": the record at byte " + position
          + " has kind " + (record[0] & 0xff) + ", which no version-" + BlockCacheTrace.VERSION
          + " trace has");
    }
    kind = k;
    fileNumber = fields.getLong(1);
    offset = fields.getLong(9);
    bytes = fields.getInt(17);
    nanos = fields.getLong(21);
    position += record.length;
    return true;
  }

  public BlockCacheTrace.Kind kind() {
    return kind;
  }

  public long fileNumber() {
    return fileNumber;
  }

  public long offset() {
    return offset;
  }

  public int bytes() {
    return bytes;
  }

  /** Nanoseconds from the trace's start to this record. */
  public long nanos() {
    return nanos;
  }

  @Override
  public void close() throws IOException {
    in.close();
  }
}
