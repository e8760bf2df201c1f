package dev.cairn.key;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * The merge operands a read has met so far for one key, newest first. A point read's components
 * (memtables, then tables, level by level) each add the operands above the key's newest value or
 * tombstone in them, and the read resolves them ({@link Merger}) where it finds that value, that
 * tombstone, or nothing older; an iterator gathers a key's operands the same way in either
 * direction. Confined to the reading thread.
 */
public final class MergeOperands {
  /** Null until the first operand: most reads meet none. Newest first unless {@link #oldestFirst}. */
  private List<byte[]> operands;
  /**
   * Whether {@link #operands} holds them oldest first: while only {@link #addNewest} recorded
   * them, each is appended (inserting at the front would make a key with k operands cost k^2),
   * and the list is turned once when read.
   */
  private boolean oldestFirst;

  /** Records an operand older than every operand recorded so far. */
  public void add(byte[] operand) {
    newestFirstList().add(operand);
  }

  /** Records an operand newer than every operand recorded so far (a backward read meets the oldest first). */
  public void addNewest(byte[] operand) {
    if (operands == null) {
      operands = new ArrayList<>(4);
      oldestFirst = true;
    }
    if (oldestFirst) {
      operands.add(operand);
    } else {
      operands.add(0, operand);
    }
  }

  public boolean isEmpty() {
    return operands == null || operands.isEmpty();
  }

  public int size() {
    return operands == null ? 0 : operands.size();
  }

  /** Forgets the operands recorded after the first {@code size} (a component whose answer is not used). */
  public void truncate(int size) {
    if (size < size()) {
      List<byte[]> list = newestFirstList();
      list.subList(size, list.size()).clear();
    }
  }

  /** The operands, newest first (a view). */
  public List<byte[]> newestFirst() {
    return operands == null ? List.of() : newestFirstList();
  }

  private List<byte[]> newestFirstList() {
    if (operands == null) {
      operands = new ArrayList<>(4);
    } else if (oldestFirst) {
      Collections.reverse(operands);
    }
    oldestFirst = false;
    return operands;
  }

  /**
   * The value a read returns: {@code base} (a value, or null for a tombstone or nothing) when no
   * operand was met, else the operands merged onto it by {@code merger}.
   */
  public byte[] resolve(Merger merger, byte[] userKey, byte[] base) {
    return isEmpty() ? base : merger.fullMerge(userKey, base, newestFirstList());
  }
}
