package dev.cairn.table;

import dev.cairn.CorruptionException;
import dev.cairn.fs.IoTag;
import dev.cairn.fs.ReadableFile;
import dev.cairn.key.InternalKey;
import dev.cairn.key.RangeTombstones;
import dev.cairn.key.ValueType;
import dev.cairn.table.block.Block;
import dev.cairn.table.block.BlockHandle;
import dev.cairn.table.block.BlockIterator;
import dev.cairn.table.block.BlockTrailer;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The data blocks of a table that incoming keys fall into (BlockDB's FindDirtyBlocks, Alg. 3),
 * and their contents, read with as few positional reads as possible.
 *
 * <p>Block {@code i} of the index covers the internal keys {@code (S[i-1], S[i]]} of its
 * separators. Cairn's index holds separators only (not the paper's smallest keys), so every
 * incoming key up to the last separator makes a block dirty; keys past it go to new blocks after
 * the last one (the "tail") without dirtying anything.
 *
 * <p>Two rules keep the drop rules of compaction correct when only some blocks are merged:
 *
 * <ul>
 *   <li>an incoming user key dirties <em>every</em> block that may hold a version of it, not just
 *       the one its own internal key falls into;
 *   <li>a run of dirty blocks is widened until no user key straddles its boundary: a merge must
 *       see every version of each user key it merges, or it could drop a tombstone that still
 *       hides an older version in a clean neighbour.
 * </ul>
 *
 * Dirty blocks are read with as few positional reads as the gaps between them allow: blocks
 * that lie in the file no more than {@link Readahead#MAX_GAP_BYTES} apart share one read, the
 * bytes between them read and dropped, except those of a clean block the widening may look at
 * (the right neighbour of a dirty block whose separator is its last user key), which are kept
 * until the widening ends; the neighbours no read passed over are read together by the same
 * rule. On a device that serves a fixed number of reads a second, calls are what a merge takes
 * from the clients' reads (docs/decisions/0030).
 */
final class DirtyBlocks {
  /** Largest single read of dirty blocks (its bytes are held on the heap while they are decoded). */
  static final int MAX_READ_BYTES = 8 << 20;

  private final TableReader reader;
  private final ReadableFile file;
  private final IoTag tag;
  private final TableIndex index;
  private final boolean[] dirty;
  /** Dirty blocks whose incoming keys go beside them, unmerged (see {@link BesideTest}). */
  private final boolean[] beside;
  private final Block[] contents;
  /**
   * The stored bytes of clean blocks that follow a dirty one in the index, kept from a read that
   * passed over them: the widening may look at their first key, and then needs no call.
   */
  private final byte[][] passedOver;
  /** Last internal key of each read block, taken once: the widening asks for it in every pass. */
  private final byte[][] lastKeys;

  /**
   * Whether the incoming keys of lone dirty block {@code i} all lie before its first or after
   * its last user key, so that they can be written as blocks of their own beside it (the paper's
   * Alg. 1, lines 8-14) instead of merged into it.
   */
  interface BesideTest {
    boolean test(int i, Block block);
  }

  private DirtyBlocks(TableReader reader, ReadableFile file, IoTag tag) {
    this.reader = reader;
    this.file = file;
    this.tag = tag;
    this.index = reader.index();
    this.dirty = new boolean[index.size()];
    this.beside = new boolean[index.size()];
    this.contents = new Block[index.size()];
    this.passedOver = new byte[index.size()][];
    this.lastKeys = new byte[index.size()][];
  }

  /**
   * Finds and reads the dirty blocks of {@code reader}'s table for the incoming {@code userKeys}
   * (ascending, duplicates allowed).
   */
  static DirtyBlocks find(TableReader reader, ReadableFile file, IoTag tag, List<byte[]> userKeys,
      RangeTombstones tombstones, BesideTest besideTest) throws IOException {
    DirtyBlocks d = new DirtyBlocks(reader, file, tag);
    d.markFromIndex(userKeys);
    boolean[] underTombstone = d.markUnder(tombstones);
    d.readCoalesced();
    for (int i = 0; i < d.dirty.length; i++) {
      boolean lone = d.dirty[i] && (i == 0 || !d.dirty[i - 1]) && (i + 1 == d.dirty.length || !d.dirty[i + 1]);
      // A block under an incoming range tombstone is merged: its covered entries go.
      d.beside[i] = lone && !underTombstone[i] && besideTest.test(i, d.contents[i]);
    }
    d.widenStraddlingRuns();
    return d;
  }

  /** Whether dirty block {@code i} keeps its place, its incoming keys written beside it. */
  boolean isBeside(int i) {
    return beside[i];
  }

  long besideCount() {
    long c = 0;
    for (boolean b : beside) {
      c += b ? 1 : 0;
    }
    return c;
  }

  /**
   * The dirty blocks incoming {@code userKeys} make, from the index alone (no read; before the
   * widening for straddling user keys, which needs the blocks' contents): the selective rule's
   * dirty ratio.
   */
  static long countFromIndex(TableReader reader, List<byte[]> userKeys, RangeTombstones tombstones) {
    DirtyBlocks d = new DirtyBlocks(reader, null, null);
    d.markFromIndex(userKeys);
    d.markUnder(tombstones);
    return d.dirtyCount();
  }

  /**
   * Marks dirty every block that may hold a key some tombstone of {@code tombstones} covers (a
   * clean block under a range tombstone is no longer clean); returns which blocks it marked.
   */
  private boolean[] markUnder(RangeTombstones tombstones) {
    boolean[] under = new boolean[dirty.length];
    int n = index.size();
    for (dev.cairn.key.RangeTombstone t : tombstones.all()) {
      int first = index.seek(InternalKey.encode(t.from(), InternalKey.MAX_SEQUENCE, ValueType.FOR_SEEK));
      // The block holding the first entry at or after the end may hold covered keys before it.
      int last = Math.min(index.seek(InternalKey.encode(t.to(), InternalKey.MAX_SEQUENCE, ValueType.FOR_SEEK)), n - 1);
      for (int i = first; i <= last; i++) {
        dirty[i] = true;
        under[i] = true;
      }
    }
    return under;
  }

  private void markFromIndex(List<byte[]> userKeys) {
    DirtyBlocks d = this;
    int n = d.index.size();
    byte[] previous = null;
    for (byte[] u : userKeys) {
      if (previous != null && Arrays.equals(previous, u)) {
        continue;
      }
      previous = u;
      int first = d.index.seek(InternalKey.encode(u, InternalKey.MAX_SEQUENCE, ValueType.FOR_SEEK));
      int last = Math.min(d.index.seek(InternalKey.encode(u, 0, ValueType.DELETION)), n - 1);
      for (int i = first; i <= last; i++) {
        d.dirty[i] = true;
      }
    }
  }

  int size() {
    return dirty.length;
  }

  boolean isDirty(int i) {
    return dirty[i];
  }

  long dirtyCount() {
    long c = 0;
    for (boolean b : dirty) {
      c += b ? 1 : 0;
    }
    return c;
  }

  /** Contents of dirty block {@code i}. */
  Block block(int i) {
    assert dirty[i] && contents[i] != null;
    return contents[i];
  }

  /** Reads every dirty block not read yet. */
  private void readCoalesced() throws IOException {
    List<Integer> wanted = new ArrayList<>();
    for (int i = 0; i < dirty.length; i++) {
      if (dirty[i] && contents[i] == null) {
        wanted.add(i);
      }
    }
    read(wanted);
  }

  /**
   * Reads {@code blocks} (index positions, none read yet), those whose bytes a read passed over
   * from those bytes, the rest in file order: blocks at most
   * {@link Readahead#MAX_GAP_BYTES} apart share one read of at most {@link #MAX_READ_BYTES}.
   */
  private void read(List<Integer> blocks) throws IOException {
    List<Integer> wanted = new ArrayList<>();
    for (int i : blocks) {
      if (!decodePassedOver(i)) {
        wanted.add(i);
      }
    }
    wanted.sort((a, b) -> Long.compare(index.handle(a).offset(), index.handle(b).offset()));
    int start = 0;
    while (start < wanted.size()) {
      int end = start + 1;
      long from = index.handle(wanted.get(start)).offset();
      while (end < wanted.size()
          && gapBefore(wanted.get(end), wanted.get(end - 1)) <= Readahead.MAX_GAP_BYTES
          && index.handle(wanted.get(end)).end() - from <= MAX_READ_BYTES) {
        end++;
      }
      readSpan(wanted.subList(start, end));
      start = end;
    }
  }

  /** Bytes between block {@code before}'s end and block {@code i}'s start in the file. */
  private long gapBefore(int i, int before) {
    return index.handle(i).offset() - index.handle(before).end();
  }

  private void readSpan(List<Integer> blocks) throws IOException {
    long from = index.handle(blocks.get(0)).offset();
    long to = index.handle(blocks.get(blocks.size() - 1)).end();
    byte[] raw = new byte[Math.toIntExact(to - from)];
    int n = file.read(from, ByteBuffer.wrap(raw), tag);
    if (n != raw.length) {
      throw new CorruptionException(reader.fileName(), from,
          "truncated blocks: wanted " + raw.length + " bytes, got " + Math.max(0, n));
    }
    for (int i : blocks) {
      contents[i] = decode(i, storedBytes(raw, from, i));
    }
    keepPassedOverNeighbours(raw, from, to);
  }

  /**
   * Keeps the stored bytes of the clean blocks inside {@code raw} (read from {@code from} to
   * {@code to}) that the widening may look at, found among the blocks in that stretch of the
   * file (in file order: an append may have put a block's neighbour anywhere).
   */
  private void keepPassedOverNeighbours(byte[] raw, long from, long to) {
    for (int k = index.blocksStartingBefore(from); k < dirty.length; k++) {
      int j = index.byFileOffset(k);
      BlockHandle h = index.handle(j);
      if (h.offset() >= to) {
        break;
      }
      if (h.end() <= to && j > 0 && contents[j] == null && passedOver[j] == null
          && mayLookAtRightNeighbour(j - 1)) {
        passedOver[j] = storedBytes(raw, from, j);
      }
    }
  }

  /**
   * Whether the widening may look at block {@code i}'s clean right neighbour: {@code i} is dirty
   * and read, and its separator is its last user key (the hint that the key may straddle).
   */
  private boolean mayLookAtRightNeighbour(int i) {
    return dirty[i] && contents[i] != null && !dirty[i + 1]
        && sameUserKey(index.separator(i), lastKeyOf(i));
  }

  /** Last internal key of read block {@code i}, walked once. */
  private byte[] lastKeyOf(int i) {
    if (lastKeys[i] == null) {
      lastKeys[i] = lastKey(contents[i]);
    }
    return lastKeys[i];
  }

  /** Block {@code i}'s stored bytes (its trailer included) out of {@code raw}, read from {@code from}. */
  private byte[] storedBytes(byte[] raw, long from, int i) {
    BlockHandle h = index.handle(i);
    int at = (int) (h.offset() - from);
    return Arrays.copyOfRange(raw, at, at + (int) h.size() + BlockTrailer.SIZE);
  }

  private Block decode(int i, byte[] stored) {
    BlockHandle h = index.handle(i);
    return Block.of(reader.decodeStored(ByteBuffer.wrap(stored), h.offset()), reader.fileName(), h);
  }

  /** Decodes block {@code i} from bytes a read passed over; false if none did. */
  private boolean decodePassedOver(int i) {
    if (passedOver[i] == null) {
      return false;
    }
    contents[i] = decode(i, passedOver[i]);
    passedOver[i] = null;
    return true;
  }

  private void widenStraddlingRuns() throws IOException {
    boolean changed = true;
    while (changed) {
      changed = false;
      read(neighboursThatDecide());
      for (int i = 0; i < dirty.length; i++) {
        if (!dirty[i] || beside[i] || contents[i] == null) {
          continue; // clean, not merged, or marked in this pass: looked at after the next read
        }
        // Left neighbour: the separator lies in [its last key, this block's first key), and a
        // shortened separator's user key is below the next block's, so a match of the
        // separator's user key with this block's first one means the user key straddles.
        // A neighbour that is clean, or kept beside its incoming keys, joins the merge.
        if (i > 0 && (!dirty[i - 1] || beside[i - 1])
            && sameUserKey(index.separator(i - 1), firstKey(contents[i]))) {
          dirty[i - 1] = true;
          beside[i - 1] = false;
          changed = true;
        }
        // Right neighbour: the separator is usually the block's exact last key, so a match with
        // the last user key is only a hint; the neighbour's first key decides.
        if (i + 1 < dirty.length && (!dirty[i + 1] || beside[i + 1])
            && sameUserKey(index.separator(i), lastKeyOf(i))
            && sameUserKey(lastKeyOf(i), firstKey(peek(i + 1)))) {
          dirty[i + 1] = true;
          beside[i + 1] = false;
          changed = true;
        }
      }
      if (changed) {
        readCoalesced();
      }
    }
    Arrays.fill(passedOver, null); // what the widening did not look at is not needed
  }

  /**
   * The clean right neighbours whose first key decides whether a merged run widens (the run's
   * separator is its last user key) and that are not decoded yet: decoded from the bytes a read
   * of dirty blocks passed over, or read together, before the pass that looks at them, so that
   * each does not cost a call of its own. In a dense key space (the runner's, or sequential ids)
   * the separator is rarely shortened and nearly every merged run's right neighbour is one.
   */
  private List<Integer> neighboursThatDecide() {
    List<Integer> out = new ArrayList<>();
    for (int i = 0; i + 1 < dirty.length; i++) {
      if (!beside[i] && contents[i + 1] == null && mayLookAtRightNeighbour(i)) {
        out.add(i + 1);
      }
    }
    return out;
  }

  /**
   * Block {@code j}'s contents: a neighbour decoded or read by {@link #neighboursThatDecide}, or,
   * when it became one during the pass, decoded from bytes passed over or read alone.
   */
  private Block peek(int j) throws IOException {
    if (contents[j] == null && !decodePassedOver(j)) {
      readSpan(List.of(j));
    }
    return contents[j];
  }

  /** Whether block {@code i}'s contents were read: the dirty ones and the neighbours looked at. */
  boolean isRead(int i) {
    return contents[i] != null;
  }

  private static boolean sameUserKey(byte[] a, byte[] b) {
    return b != null && InternalKey.compareUserKeys(a, b) == 0;
  }

  static byte[] firstKey(Block b) {
    try (BlockIterator it = b.internalKeyIterator()) {
      it.seekToFirst();
      return it.isValid() ? it.key() : null;
    }
  }

  static byte[] lastKey(Block b) {
    try (BlockIterator it = b.internalKeyIterator()) {
      byte[] last = null;
      for (it.seekToFirst(); it.isValid(); it.next()) {
        last = it.key();
      }
      return last;
    }
  }
}
