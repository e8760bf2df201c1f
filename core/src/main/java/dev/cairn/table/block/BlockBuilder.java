package dev.cairn.table.block;

import dev.cairn.util.ByteSink;
import java.util.Arrays;
import java.util.Comparator;

/**
 * Builds the contents of a key/value block (docs/format.md section 3.1): prefix-compressed entries
 * followed by the restart array and its length.
 *
 * <pre>
 *   entry*  | restart[0..n): fixed32 each | n: fixed32
 *   entry = varint32 shared | varint32 unshared | varint32 value_length | key_delta | value
 * </pre>
 *
 * Not thread-safe. Requires keys strictly increasing under the comparator given at construction.
 */
public final class BlockBuilder {
  private final int restartInterval;
  private final Comparator<byte[]> comparator;
  private final ByteSink buffer;
  private int[] restarts = new int[16];
  private int restartCount;
  private int sinceRestart;
  private int entries;
  private byte[] lastKey = new byte[0];
  private boolean finished;

  public BlockBuilder(int restartInterval, Comparator<byte[]> comparator, int expectedBytes) {
    if (restartInterval < 1) {
      throw new IllegalArgumentException("restart interval must be >= 1: " + restartInterval);
    }
    this.restartInterval = restartInterval;
    this.comparator = comparator;
    this.buffer = new ByteSink(expectedBytes + expectedBytes / 8);
    reset();
  }

  /** Empties the builder for the next block. */
  public void reset() {
    buffer.reset();
    restartCount = 0;
    addRestart(0);
    sinceRestart = 0;
    entries = 0;
    lastKey = new byte[0];
    finished = false;
  }

  private void addRestart(int offset) {
    if (restartCount == restarts.length) {
      restarts = Arrays.copyOf(restarts, restartCount * 2);
    }
    restarts[restartCount++] = offset;
  }

  /** Requires: not finished; {@code key} greater than every key added since the last reset. */
  public void add(byte[] key, byte[] value) {
    assert !finished : "add after finish";
    assert entries == 0 || comparator.compare(lastKey, key) < 0
        : "keys out of order in block builder";
    int shared = 0;
    if (sinceRestart < restartInterval) {
      int max = Math.min(lastKey.length, key.length);
      while (shared < max && lastKey[shared] == key[shared]) {
        shared++;
      }
    } else {
      addRestart(buffer.size());
      sinceRestart = 0;
    }
    buffer.putVarint32(shared).putVarint32(key.length - shared).putVarint32(value.length);
    buffer.putBytes(key, shared, key.length - shared);
    buffer.putBytes(value);
    lastKey = key;
    sinceRestart++;
    entries++;
  }

  /**
   * Appends the restart array and returns the block's length: its contents are {@link
   * #array()}{@code [0, length)}, valid until {@link #reset()}. What a table builder writes and
   * lets go of, without a copy.
   */
  public int finishInPlace() {
    if (!finished) {
      for (int i = 0; i < restartCount; i++) {
        buffer.putFixed32(restarts[i]);
      }
      buffer.putFixed32(restartCount);
      finished = true;
    }
    return buffer.size();
  }

  /** The array a finished block's contents are in ({@link #finishInPlace()}). */
  public byte[] array() {
    return buffer.array();
  }

  /** Appends the restart array and returns a copy of the contents, the caller's to keep. */
  public byte[] finish() {
    finishInPlace();
    return buffer.toByteArray();
  }

  /** Size the contents would have if finished now. */
  public int currentSizeEstimate() {
    return buffer.size() + (finished ? 0 : restartCount * 4 + 4);
  }

  public int entries() {
    return entries;
  }

  public boolean isEmpty() {
    return entries == 0;
  }

  /** The last key added (the array given to {@link #add}); empty when the block is empty. */
  public byte[] lastKey() {
    return lastKey;
  }
}
