package dev.cairn;

import dev.cairn.key.UserKeys;
import dev.cairn.key.ValueType;
import dev.cairn.memtable.MemTable;
import dev.cairn.util.ByteSink;
import dev.cairn.util.Coding;
import dev.cairn.wal.WriteBatchRecords;
import java.util.Arrays;

/**
 * Puts, deletes, range deletes and merges applied atomically by {@link Cairn#write}. Not thread-safe.
 *
 * <p>The batch is kept in its WAL encoding (docs/log_format.md, "Write batch"; read and written
 * by {@link WriteBatchRecords}, inside the engine), so writing it costs no re-encoding:
 *
 * <pre>
 *   fixed64 sequence | fixed32 count | count × record
 *   record := type byte (1 = put, 0 = delete, 2 = merge, 3 = range delete) | varint32 keyLen | key
 *             | [varint32 valueLen | value]   (put: the value; merge: the operand; range delete: the end)
 * </pre>
 */
public final class WriteBatch {
  /**
   * The most of a memtable a batch may take: its encoding and 80 bytes an operation (the key's
   * trailer and the entry's overhead), 1 GiB. An operation that would take a batch past it is
   * refused, the batch unchanged: a batch is one log record and is replayed into one memtable.
   * With a TTL ({@code Options.ttl}) each put is written with 4 bytes more (its write time), so
   * a batch within 4 bytes a put of the limit is refused when written, nothing logged.
   */
  public static final long MAX_BYTES = 1L << 30;
  /** An operation's encoding beyond its key and value: the type and two varint32 lengths. */
  private static final int OPERATION_FRAMING_BYTES = 1 + 5 + 5;

  private final ByteSink rep = new ByteSink(64);
  private int count;
  private int merges;
  private long userBytes;

  public WriteBatch() {
    clear();
  }

  public WriteBatch put(byte[] key, byte[] value) {
    UserKeys.checkValid(key);
    if (value == null) {
      throw new IllegalArgumentException("value must not be null (use delete to remove a key)");
    }
    if (value.length > Options.MAX_VALUE_BYTES) {
      throw new IllegalArgumentException(
          "value of " + value.length + " bytes exceeds the limit of " + Options.MAX_VALUE_BYTES);
    }
    checkRoom(key.length + value.length, 1);
    rep.putByte(ValueType.VALUE.persistentId()).putLengthPrefixed(key).putLengthPrefixed(value);
    count++;
    userBytes += key.length + value.length;
    return this;
  }

  /**
   * Adds {@code operand} to {@code key}'s value through the database's merge operator ({@link
   * Cairn#merge}). Writing a batch that holds merges to a database without a merge operator is
   * refused.
   */
  public WriteBatch merge(byte[] key, byte[] operand) {
    UserKeys.checkValid(key);
    if (operand == null) {
      throw new IllegalArgumentException("merge operand must not be null");
    }
    if (operand.length > Options.MAX_VALUE_BYTES) {
      throw new IllegalArgumentException(
          "merge operand of " + operand.length + " bytes exceeds the limit of " + Options.MAX_VALUE_BYTES);
    }
    checkRoom(key.length + operand.length, 1);
    rep.putByte(ValueType.MERGE.persistentId()).putLengthPrefixed(key).putLengthPrefixed(operand);
    count++;
    merges++;
    userBytes += key.length + operand.length;
    return this;
  }

  /**
   * Deletes every key in [{@code from}, {@code toExclusive}) ({@link Cairn#deleteRange}).
   *
   * @throws IllegalArgumentException if a bound is not a valid key or the range is empty or inverted
   */
  public WriteBatch deleteRange(byte[] from, byte[] toExclusive) {
    UserKeys.checkValid(from);
    UserKeys.checkValid(toExclusive);
    if (java.util.Arrays.compareUnsigned(from, toExclusive) >= 0) {
      throw new IllegalArgumentException("deleteRange needs from < toExclusive (unsigned bytewise); the range is "
          + (java.util.Arrays.equals(from, toExclusive) ? "empty" : "inverted"));
    }
    checkRoom(from.length + toExclusive.length, 1);
    rep.putByte(ValueType.RANGE_DELETION.persistentId()).putLengthPrefixed(from).putLengthPrefixed(toExclusive);
    count++;
    userBytes += from.length + toExclusive.length;
    return this;
  }

  public WriteBatch delete(byte[] key) {
    UserKeys.checkValid(key);
    checkRoom(key.length, 1);
    rep.putByte(ValueType.DELETION.persistentId()).putLengthPrefixed(key);
    count++;
    userBytes += key.length;
    return this;
  }

  public int count() {
    return count;
  }

  /** How many of the operations are merges. */
  public int merges() {
    return merges;
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
    merges = 0;
    userBytes = 0;
  }

  /** Appends every operation of {@code other} to this batch. */
  public WriteBatch append(WriteBatch other) {
    checkBytes(MemTable.bytesToAdd(encodedSize() + (long) other.encodedSize() - WriteBatchRecords.HEADER_BYTES,
        (long) count + other.count));
    rep.putBytes(other.rep.array(), WriteBatchRecords.HEADER_BYTES, other.rep.size() - WriteBatchRecords.HEADER_BYTES);
    count += other.count;
    merges += other.merges;
    userBytes += other.userBytes;
    return this;
  }

  /** Refuses an operation of {@code payloadBytes} (key and value, or range) in {@code operations} past {@link #MAX_BYTES}. */
  private void checkRoom(long payloadBytes, int operations) {
    checkBytes(MemTable.bytesToAdd(encodedSize() + payloadBytes + (long) OPERATION_FRAMING_BYTES * operations,
        (long) count + operations));
  }

  private static void checkBytes(long memtableBytes) {
    if (memtableBytes > MAX_BYTES) {
      throw new IllegalArgumentException("write batch too large: it would take " + memtableBytes
          + " bytes of a memtable (its encoding and " + (8 + MemTable.ENTRY_OVERHEAD_BYTES)
          + " bytes an operation), past the limit of " + MAX_BYTES
          + " (WriteBatch.MAX_BYTES); split it into several batches");
    }
  }

  static {
    WriteBatchRecords.setEncoder(WriteBatch::encode);
  }

  /**
   * The encoding with {@code firstSequence} and the count filled in; the first operation gets
   * {@code firstSequence}, the next one more, and so on. Reached through
   * {@link WriteBatchRecords#encode}: the log's encoding is not API.
   */
  private byte[] encode(long firstSequence) {
    byte[] out = rep.toByteArray();
    Coding.putFixed64(out, 0, firstSequence);
    Coding.putFixed32(out, 8, count);
    return out;
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
