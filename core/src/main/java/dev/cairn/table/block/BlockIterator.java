package dev.cairn.table.block;

import dev.cairn.iter.InternalIterator;
import dev.cairn.key.InternalKey;
import java.nio.ByteBuffer;
import java.util.Comparator;

/**
 * Iterates a {@link Block}'s entries in both directions. {@link #seek} binary-searches the restart
 * points, then scans forward (at most one restart interval). Entries are prefix-compressed against
 * the one before, so a block can only be decoded forward: {@link #prev()} goes back to the last
 * restart point before the current entry and decodes forward up to it, remembering the entries it
 * decoded, so that the next steps back through that interval take them from memory (RocksDB's
 * block iterator does the same; LevelDB's decodes the interval again on every step). Keys are
 * materialized per entry (the prefix compression needs the previous key anyway); values are
 * copied out when asked for.
 *
 * <p>Not thread-safe. Holds no resources of its own: {@link #close()} only invalidates it.
 */
public final class BlockIterator implements InternalIterator {
  private final Block block;
  private final ByteBuffer buf;
  private final Comparator<byte[]> comparator;
  /** Whether every decoded key must be a valid internal key (see Block#internalKeyIterator). */
  private final boolean internalKeys;
  private final int end;

  // Current entry; valid when key != null.
  private byte[] key;
  private int currentOffset;
  private int valueOffset;
  private int valueLength;
  private int nextOffset;
  private byte[] value;

  // Moving backward: the entries from the restart point before the one shown up to it, decoded
  // once; the current entry is backKeys[backIndex]. backIndex -1: not walking back through them.
  private final java.util.ArrayList<byte[]> backKeys = new java.util.ArrayList<>();
  /** Per remembered entry: its offset, value offset, value length and the next entry's offset. */
  private int[] backPositions = new int[4 * 16];
  private int backIndex = -1;

  BlockIterator(Block block, Comparator<byte[]> comparator, boolean internalKeys) {
    this.block = block;
    this.buf = block.buffer();
    this.comparator = comparator;
    this.internalKeys = internalKeys;
    this.end = block.entriesEnd();
  }

  @Override
  public boolean isValid() {
    return key != null;
  }

  @Override
  public void seekToFirst() {
    backIndex = -1;
    seekToRestart(0);
    parseNext();
  }

  @Override
  public void seek(byte[] target) {
    backIndex = -1;
    // Find the last restart point whose key is < target; the answer is at or after it.
    int left = 0;
    int right = block.restartCount() - 1;
    while (left < right) {
      int mid = (left + right + 1) >>> 1;
      if (comparator.compare(restartKey(mid), target) < 0) {
        left = mid;
      } else {
        right = mid - 1;
      }
    }
    seekToRestart(left);
    parseNext();
    while (key != null && comparator.compare(key, target) < 0) {
      parseNext();
    }
  }

  @Override
  public void seekToLast() {
    backIndex = -1;
    seekToRestart(block.restartCount() - 1);
    parseNext();
    while (key != null && nextOffset < end) {
      parseNext();
    }
  }

  /** The last entry {@code <= target} in this block's own order. */
  @Override
  public void seekForPrev(byte[] target) {
    InternalIterator.seekForPrevBySeeking(this, target, comparator);
  }

  @Override
  public void next() {
    assert isValid() : "next() on an invalid block iterator";
    backIndex = -1;
    parseNext();
  }

  @Override
  public void prev() {
    assert isValid() : "prev() on an invalid block iterator";
    if (backIndex > 0) {
      showRemembered(backIndex - 1);
      return;
    }
    int original = currentOffset;
    int restart = lastRestartBefore(original);
    if (restart < 0) {
      key = null; // the first entry: nothing before it
      backIndex = -1;
      return;
    }
    seekToRestart(restart);
    backKeys.clear();
    while (nextOffset < original) { // every entry remembered starts before the one shown
      parseNext();
      if (key == null) {
        break;
      }
      remember();
    }
    if (backKeys.isEmpty()) {
      key = null;
      backIndex = -1;
      return;
    }
    showRemembered(backKeys.size() - 1);
  }

  private void remember() {
    int i = backKeys.size();
    if (4 * i + 4 > backPositions.length) {
      backPositions = java.util.Arrays.copyOf(backPositions, backPositions.length * 2);
    }
    backPositions[4 * i] = currentOffset;
    backPositions[4 * i + 1] = valueOffset;
    backPositions[4 * i + 2] = valueLength;
    backPositions[4 * i + 3] = nextOffset;
    backKeys.add(key);
  }

  private void showRemembered(int i) {
    backIndex = i;
    key = backKeys.get(i);
    currentOffset = backPositions[4 * i];
    valueOffset = backPositions[4 * i + 1];
    valueLength = backPositions[4 * i + 2];
    nextOffset = backPositions[4 * i + 3];
    value = null;
  }

  @Override
  public byte[] key() {
    assert isValid();
    return key;
  }

  @Override
  public byte[] value() {
    assert isValid();
    if (value == null) {
      value = new byte[valueLength];
      buf.get(valueOffset, value);
    }
    return value;
  }

  /** A fresh copy of the value, unless {@link #value()} already made (and shared) one. */
  @Override
  public byte[] ownedValue() {
    assert isValid();
    if (value != null) {
      return value.clone();
    }
    byte[] out = new byte[valueLength];
    buf.get(valueOffset, out);
    return out;
  }

  @Override
  public void close() {
    key = null;
    backIndex = -1;
    backKeys.clear();
  }

  /** The index of the last restart point whose offset is {@code < offset}, or -1. */
  private int lastRestartBefore(int offset) {
    int left = 0;
    int right = block.restartCount() - 1;
    if (block.restartPoint(0) >= offset) {
      return -1;
    }
    while (left < right) {
      int mid = (left + right + 1) >>> 1;
      if (block.restartPoint(mid) < offset) {
        left = mid;
      } else {
        right = mid - 1;
      }
    }
    return left;
  }

  private void seekToRestart(int index) {
    key = null;
    nextOffset = block.restartPoint(index);
  }

  /** The key of restart point {@code index}, which must not share a prefix. */
  private byte[] restartKey(int index) {
    int p = block.restartPoint(index);
    if (p >= end) {
      throw block.corruption(p, "restart point past the entries");
    }
    int[] pos = {p};
    int shared = varint32(pos);
    int unshared = varint32(pos);
    varint32(pos);
    if (shared != 0) {
      throw block.corruption(p, "restart entry shares " + shared + " key bytes");
    }
    checkRange(pos[0], unshared);
    byte[] k = new byte[unshared];
    buf.get(pos[0], k);
    return checkKey(k, p);
  }

  /** Decodes the entry at nextOffset, or invalidates the iterator at the end of the entries. */
  private void parseNext() {
    int p = nextOffset;
    if (p >= end) {
      key = null;
      return;
    }
    byte[] previous = key;
    key = null; // stays invalid if decoding throws
    value = null;
    int[] pos = {p};
    int shared = varint32(pos);
    int unshared = varint32(pos);
    int valueLen = varint32(pos);
    int prevLength = previous == null ? 0 : previous.length;
    if (shared < 0 || shared > prevLength) {
      throw block.corruption(p, "entry shares " + shared + " bytes of a " + prevLength
          + "-byte previous key");
    }
    checkRange(pos[0], unshared);
    checkRange(pos[0] + unshared, valueLen);
    byte[] k = new byte[shared + unshared];
    if (shared > 0) {
      System.arraycopy(previous, 0, k, 0, shared);
    }
    buf.get(pos[0], k, shared, unshared);
    valueOffset = pos[0] + unshared;
    valueLength = valueLen;
    nextOffset = valueOffset + valueLen;
    currentOffset = p;
    key = checkKey(k, p);
  }

  private byte[] checkKey(byte[] k, int entryOffset) {
    if (internalKeys && !InternalKey.isValidPointEntry(k)) {
      throw block.corruption(entryOffset, InternalKey.isValid(k)
          ? "a range deletion among point entries (a table keeps them in a block of their own)"
          : "malformed internal key of " + k.length + " bytes");
    }
    return k;
  }

  private void checkRange(int from, int length) {
    if (length < 0 || from < 0 || length > end - from) {
      throw block.corruption(from, "entry of " + Integer.toUnsignedString(length)
          + " bytes runs past the block's entries");
    }
  }

  /** Reads a varint32 at pos[0] within the entry region, advancing pos[0]. */
  private int varint32(int[] pos) {
    int p = pos[0];
    int result = 0;
    for (int shift = 0; shift < 35; shift += 7) {
      if (p >= end) {
        throw block.corruption(p, "varint runs past the block's entries");
      }
      int b = buf.get(p++) & 0xff;
      result |= (b & 0x7f) << shift;
      if ((b & 0x80) == 0) {
        if (shift == 28 && (b & 0xf0) != 0) {
          break;
        }
        pos[0] = p;
        return result;
      }
    }
    throw block.corruption(pos[0], "bad varint32");
  }
}
