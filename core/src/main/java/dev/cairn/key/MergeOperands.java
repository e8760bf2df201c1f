package dev.cairn.key;

import java.util.ArrayList;
import java.util.List;

/**
 * The merge operands a read has met so far for one key, newest first. A point read's components
 * (memtables, then tables, level by level) each add the operands above the key's newest value or
 * tombstone in them, and the read resolves them ({@link Merger}) where it finds that value, that
 * tombstone, or nothing older; an iterator gathers a key's operands the same way in either
 * direction. Confined to the reading thread.
 */
public final class MergeOperands {
  /** Null until the first operand: most reads meet none. */
  private List<byte[]> newestFirst;

  /** Records an operand older than every operand recorded so far. */
  public void add(byte[] operand) {
    if (newestFirst == null) {
      newestFirst = new ArrayList<>(4);
    }
    newestFirst.add(operand);
  }

  /** Records an operand newer than every operand recorded so far (a backward read meets the oldest first). */
  public void addNewest(byte[] operand) {
    if (newestFirst == null) {
      newestFirst = new ArrayList<>(4);
    }
    newestFirst.add(0, operand);
  }

  public boolean isEmpty() {
    return newestFirst == null || newestFirst.isEmpty();
  }

  public int size() {
    return newestFirst == null ? 0 : newestFirst.size();
  }

  /** Forgets the operands recorded after the first {@code size} (a component whose answer is not used). */
  public void truncate(int size) {
    if (size < size()) {
      newestFirst.subList(size, newestFirst.size()).clear();
    }
  }

  /** The operands, newest first (a view). */
  public List<byte[]> newestFirst() {
    return newestFirst == null ? List.of() : newestFirst;
  }

  /**
   * The value a read returns: {@code base} (a value, or null for a tombstone or nothing) when no
   * operand was met, else the operands merged onto it by {@code merger}.
   */
  public byte[] resolve(Merger merger, byte[] userKey, byte[] base) {
    return isEmpty() ? base : merger.fullMerge(userKey, base, newestFirst);
  }
}
