package dev.cairn;

import dev.cairn.key.InternalKey;
import dev.cairn.key.ValueType;
import dev.cairn.util.ByteSink;
import dev.cairn.util.ByteSource;
import dev.cairn.util.Coding;
import java.util.Arrays;

/**
 * Puts and deletes applied atomically by {@link Cairn#write}. Not thread-safe.
 *
 * <p>The batch is kept in its WAL encoding (docs/log_format.md, "Write batch"), so writing it
 * costs no re-encoding:
 *
 * <pre>
 *   fixed64 sequence | fixed32 count | count × record
 *   record := type byte (1 = put, 0 = delete) | varint32 keyLen | key | [varint32 valueLen | value]
 * </pre>
 */
public final class WriteBatch {
  static final int HEADER_BYTES = 12;

  private final ByteSink rep = new ByteSink(64);
  private int count;
  private long userBytes;

  public WriteBatch() {
    clear();
  }

  public WriteBatch put(byte[] key, byte[] value) {
    checkKey(key);
    if (value == null) {
      throw new IllegalArgumentException("value must not be null (use delete to remove a key)");
    }
    if (value.length > Options.MAX_VALUE_BYTES) {
      throw new IllegalArgumentException(
          "value of " + value.length + " bytes exceeds the limit of " + Options.MAX_VALUE_BYTES);
    }
    rep.putByte(ValueType.VALUE.persistentId()).putLengthPrefixed(key).putLengthPrefixed(value);
    count++;
    userBytes += key.length + value.length;
    return this;
  }

  public WriteBatch delete(byte[] key) {
    checkKey(key);
    rep.putByte(ValueType.DELETION.persistentId()).putLengthPrefixed(key);
    count++;
    userBytes += key.length;
    return this;
  }

  static void checkKey(byte[] key) {
    if (key == null) {
      throw new IllegalArgumentException("key must not be null");
    }
    if (key.length == 0) {
      throw new IllegalArgumentException("key must not be empty");
    }
    if (key.length > Options.MAX_KEY_BYTES) {
      throw new IllegalArgumentException(
          "key of " + key.length + " bytes exceeds the limit of " + Options.MAX_KEY_BYTES);
    }
  }

  public int count() {
    return count;
  }

  /** Key and value bytes of the batch's operations (the denominator of write amplification). */
  public long userBytes() {
    return userBytes;
  }

  /** Encoded size in bytes. */
  public int encodedSize() {
    return rep.size();
  }

  public void clear() {
    rep.reset();
    rep.putFixed64(0).putFixed32(0);
    count = 0;
    userBytes = 0;
  }

  /** Appends every operation of {@code other} to this batch. */
  public WriteBatch append(WriteBatch other) {
    rep.putBytes(other.rep.array(), HEADER_BYTES, other.rep.size() - HEADER_BYTES);
    count += other.count;
    userBytes += other.userBytes;
    return this;
  }

  /**
   * The encoding with {@code firstSequence} and the count filled in; the first operation gets
   * {@code firstSequence}, the next one more, and so on.
   */
  public byte[] encode(long firstSequence) {
    byte[] out = rep.toByteArray();
    Coding.putFixed64(out, 0, firstSequence);
    Coding.putFixed32(out, 8, count);
    return out;
  }

  /** Receives the operations of an encoded batch in order. */
  public interface Handler {
    void put(long sequence, byte[] key, byte[] value);

    void delete(long sequence, byte[] key);
  }

  /**
   * Decodes an encoded batch (as written to the WAL), calling {@code handler} per operation;
   * returns the number of operations. Damage raises {@link CorruptionException} naming
   * {@code fileName} and {@code fileOffset} + the position in the record.
   */
  public static int decode(byte[] encoded, String fileName, long fileOffset, Handler handler) {
    ByteSource src = new ByteSource(encoded, fileName, fileOffset);
    if (encoded.length < HEADER_BYTES) {
      throw src.corruption("write batch shorter than its " + HEADER_BYTES + "-byte header");
    }
    long sequence = src.getFixed64();
    if (sequence < 0 || sequence > InternalKey.MAX_SEQUENCE) {
      throw src.corruption("write batch sequence " + Long.toUnsignedString(sequence) + " out of range");
    }
    int expected = src.getFixed32();
    int seen = 0;
    while (src.hasRemaining()) {
      if (sequence + seen > InternalKey.MAX_SEQUENCE) {
        throw src.corruption("write batch operation " + seen + " would get a sequence beyond "
            + InternalKey.MAX_SEQUENCE);
      }
      int type = src.getByte();
      byte[] key = src.getLengthPrefixed();
      if (key.length == 0 || key.length > Options.MAX_KEY_BYTES) {
        // The API refuses such a key, so no intact batch holds one.
        throw src.corruption("write batch key of " + key.length + " bytes");
      }
      if (type == ValueType.VALUE.persistentId()) {
        byte[] value = src.getLengthPrefixed();
        if (value.length > Options.MAX_VALUE_BYTES) {
          throw src.corruption("write batch value of " + value.length + " bytes");
        }
        handler.put(sequence + seen, key, value);
      } else if (type == ValueType.DELETION.persistentId()) {
        handler.delete(sequence + seen, key);
      } else {
        throw src.corruption("unknown write batch record type " + type);
      }
      seen++;
    }
    if (seen != expected) {
      throw src.corruption("write batch says " + expected + " operations but holds " + seen);
    }
    return seen;
  }

  /** The first sequence number of an encoded batch. */
  public static long sequenceOf(byte[] encoded) {
    return Coding.getFixed64(encoded, 0);
  }

  /** The operation count of an encoded batch. */
  public static int countOf(byte[] encoded) {
    return Coding.getFixed32(encoded, 8);
  }

  @Override
  public String toString() {
    return "WriteBatch{count=" + count + ", bytes=" + rep.size() + "}";
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof WriteBatch w && w.count == count
        && Arrays.equals(rep.array(), 0, rep.size(), w.rep.array(), 0, w.rep.size());
  }

  @Override
  public int hashCode() {
    return Arrays.hashCode(rep.toByteArray());
  }
}
