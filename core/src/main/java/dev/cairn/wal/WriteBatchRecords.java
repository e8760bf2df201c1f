package dev.cairn.wal;

import dev.cairn.Options;
import dev.cairn.WriteBatch;
import dev.cairn.key.InternalKey;
import dev.cairn.key.ValueType;
import dev.cairn.util.ByteSource;
import dev.cairn.util.Coding;
import java.util.Objects;
import java.util.function.BiFunction;

/**
 * A {@link WriteBatch} as one log record (docs/log_format.md, "Write batch"): written by the write
 * path, read back by recovery. Inside the engine, so the log's encoding is not the API's:
 *
 * <pre>
 *   fixed64 sequence | fixed32 count | count × record
 *   record := type byte (1 = put, 0 = delete, 2 = merge, 3 = range delete) | varint32 keyLen | key
 *             | [varint32 valueLen | value]   (put: the value; merge: the operand; range delete: the end)
 * </pre>
 */
public final class WriteBatchRecords {
  /** The sequence and count before the operations. */
  public static final int HEADER_BYTES = 12;

  /** The batch's encoder, set once by {@link WriteBatch}'s class initializer. */
  private static volatile BiFunction<WriteBatch, Long, byte[]> encoder;

  private WriteBatchRecords() {}

  /** Called by {@link WriteBatch} alone, once: how to reach its bytes. */
  public static void setEncoder(BiFunction<WriteBatch, Long, byte[]> batchEncoder) {
    if (encoder != null) {
      throw new IllegalStateException("the write batch encoder is set once");
    }
    encoder = Objects.requireNonNull(batchEncoder, "batchEncoder");
  }

  /**
   * {@code batch}'s record with {@code firstSequence} and its count filled in; the first operation
   * gets {@code firstSequence}, the next one more, and so on.
   */
  public static byte[] encode(WriteBatch batch, long firstSequence) {
    // The batch exists, so its class initializer has run and set the encoder.
    return encoder.apply(batch, firstSequence);
  }

  /** Receives the operations of an encoded batch in order. */
  public interface Handler {
    void put(long sequence, byte[] key, byte[] value);

    void delete(long sequence, byte[] key);

    void merge(long sequence, byte[] key, byte[] operand);

    /** A range deletion of [{@code from}, {@code to}). */
    void deleteRange(long sequence, byte[] from, byte[] to);
  }

  /**
   * Decodes an encoded batch (as written to the WAL), calling {@code handler} per operation;
   * returns the number of operations. Damage raises {@link dev.cairn.CorruptionException} naming
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
      if (type == ValueType.VALUE.persistentId() || type == ValueType.MERGE.persistentId()) {
        byte[] value = src.getLengthPrefixed();
        if (value.length > Options.MAX_VALUE_BYTES) {
          throw src.corruption("write batch value of " + value.length + " bytes");
        }
        if (type == ValueType.VALUE.persistentId()) {
          handler.put(sequence + seen, key, value);
        } else {
          handler.merge(sequence + seen, key, value);
        }
      } else if (type == ValueType.DELETION.persistentId()) {
        handler.delete(sequence + seen, key);
      } else if (type == ValueType.RANGE_DELETION.persistentId()) {
        byte[] to = src.getLengthPrefixed();
        if (to.length == 0 || to.length > Options.MAX_KEY_BYTES || dev.cairn.key.UserKeys.compare(key, to) >= 0) {
          // The API refuses an empty or inverted range, so no intact batch holds one.
          throw src.corruption("write batch range deletion ends at or before its start");
        }
        handler.deleteRange(sequence + seen, key, to);
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

}
