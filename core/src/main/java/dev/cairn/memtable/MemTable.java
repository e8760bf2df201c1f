package dev.cairn.memtable;

import dev.cairn.wal.WriteBatchRecords;
import dev.cairn.WriteBatch;
import dev.cairn.iter.InternalIterator;
import dev.cairn.key.InternalKey;
import dev.cairn.key.InternalKeyComparator;
import dev.cairn.key.LookupResult;
import dev.cairn.key.MergeOperands;
import dev.cairn.key.RangeTombstone;
import dev.cairn.key.RangeTombstones;
import dev.cairn.key.ValueType;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The in-memory write buffer: every write lands here (after the WAL) until the memtable is
 * frozen and flushed to a level-0 table.
 *
 * <p>Entries are kept in an {@link ArenaSkipList}: encoded internal keys ({@link InternalKey}:
 * user key + 8-byte trailer {@code sequence << 8 | type}) packed into large byte arrays beside
 * their skiplist towers, ordered as {@link InternalKeyComparator} orders them, their values in
 * a second arena. Sequences are unique, so an internal key is never inserted twice and
 * nothing is ever overwritten or removed: the memtable only grows until it is dropped.
 *
 * <p><b>Why an arena skiplist.</b> A {@code ConcurrentSkipListMap} was measured here: in a
 * load with 1 KiB values and a 32 MiB memtable its {@code doPut} was a fifth of the writer
 * thread's time, chasing an index object, a node object and a key array per step through a heap
 * spread out by the values. The arena keeps each key beside its tower and the towers together
 * (docs/results/issue20 {@code memtable-jmh/}: the JMH and the load before and after). It keeps the
 * map's contract: readers never lock and see every entry linked before they look.
 *
 * <p>Thread-safety: all methods are safe to call concurrently; {@link #add} calls are serialized
 * here (group commit inserts from one thread at a time anyway).
 */
public final class MemTable {
  /**
   * Estimated heap bytes per entry beyond the key and value bytes: the node header and its tower
   * in the arena (20 + 4 bytes per level, 1.33 levels on average, at most 71 bytes with the
   * alignment), rounded up generously so that a memtable of tiny entries still switches before
   * its arena outgrows the budget. It also bounds the entries: a memtable takes at most {@link
   * #MAX_BYTES}, so at most 23.2 million entries ({@link ArenaSkipList}). Not counted: the value
   * arena's unused room, the rest of its current chunk (under 4 MiB) and the tail each full chunk
   * leaves (a value that does not fit starts the next chunk: under a quarter of a chunk for
   * values near 1 MiB, a few hundred bytes for values of 1 KiB).
   */
  public static final int ENTRY_OVERHEAD_BYTES = 72;

  /**
   * The most {@link #approximateBytes} a memtable takes, whatever the options: what its arena
   * surely holds. An entry adds its internal key, its value and {@link #ENTRY_OVERHEAD_BYTES};
   * its arena node is at most its internal key and 71 bytes, and each 1 MiB chunk wastes less
   * than the largest node (a 64 KiB key), so the 2,048 chunks hold at least 1,919 MiB of nodes;
   * its value goes to the value arena, whose chunks hold it within {@link ArenaSkipList}'s bound.
   * The write path switches to a new memtable before a group would pass it ({@link #hasRoomFor}),
   * and recovery starts a new one before a record would.
   */
  public static final long MAX_BYTES = 1792L << 20;

  /** Bytes per operation that {@link #bytesToAdd} counts beyond its encoding: the trailer and the overhead. */
  private static final int BOUND_BYTES_PER_OPERATION = 8 + ENTRY_OVERHEAD_BYTES;

  /** The value of every tombstone (an empty value takes nothing in the arena). */
  private static final byte[] NO_VALUE = new byte[0];

  private final ArenaSkipList table = new ArenaSkipList();
  /** The range tombstones added, in order: replaced whole (copy on write) by each add. */
  private volatile RangeTombstone[] rangeDeletions = new RangeTombstone[0];
  /** {@link #rangeDeletions} fragmented for reads; rebuilt when a tombstone was added since. */
  private volatile RangeTombstones fragmented = RangeTombstones.EMPTY;
  /** The log that holds this memtable's writes; {@link Long#MAX_VALUE}: none (never flushed into a version). */
  private final long logNumber;

  // Statistics, updated after each insert; readers may see them lag the map by one entry.
  private final AtomicLong approximateBytes = new AtomicLong();
  private final AtomicLong entries = new AtomicLong();
  private final AtomicLong smallestSequence = new AtomicLong(Long.MAX_VALUE);
  private final AtomicLong largestSequence = new AtomicLong(-1);

  /** A memtable outside a database's write path (recovery's, a read-only view's, a test's). */
  public MemTable() {
    this(Long.MAX_VALUE);
  }

  /** A memtable whose writes go to log {@code logNumber}. */
  public MemTable(long logNumber) {
    this.logNumber = logNumber;
  }

  /**
   * Whether {@code version} holds this memtable's flushed table: its log is older than the
   * version's ({@link dev.cairn.version.Version#logNumber()}), so a read pinning both must read
   * this memtable's entries once, from the version (a merge operand read twice is applied twice).
   */
  public boolean isFlushedInto(dev.cairn.version.Version version) {
    return logNumber < version.logNumber();
  }

  /**
   * Adds one entry, copying {@code userKey} and {@code value} into the memtable's arenas. {@code
   * value} must be an empty array for a {@link ValueType#DELETION}.
   *
   * <p>Requires: {@code sequence} is unique across all adds to this memtable.
   */
  public synchronized void add(long sequence, ValueType type, byte[] userKey, byte[] value) {
    assert type != ValueType.DELETION || value.length == 0 : "a tombstone carries no value";
    byte[] internalKey = InternalKey.encode(userKey, sequence, type);
    assert !containsExactly(internalKey) : "sequence reused: " + InternalKey.describe(internalKey);
    table.insert(internalKey, value);
    approximateBytes.addAndGet(internalKey.length + value.length + ENTRY_OVERHEAD_BYTES);
    smallestSequence.accumulateAndGet(sequence, Math::min);
    largestSequence.accumulateAndGet(sequence, Math::max);
    entries.incrementAndGet();
  }

  /**
   * Adds a range tombstone deleting [{@code from}, {@code to}) below {@code sequence}. Range
   * tombstones are kept apart from the point entries, in a list every read consults whole (they
   * are few: a range deletion replaces many point deletions).
   *
   * <p>Requires: {@code sequence} is unique across all adds to this memtable; {@code from < to}.
   */
  public synchronized void addRangeDeletion(long sequence, byte[] from, byte[] to) {
    RangeTombstone[] old = rangeDeletions;
    RangeTombstone[] grown = java.util.Arrays.copyOf(old, old.length + 1);
    grown[old.length] = new RangeTombstone(from, to, sequence);
    rangeDeletions = grown;
    approximateBytes.addAndGet(from.length + to.length + ENTRY_OVERHEAD_BYTES);
    smallestSequence.accumulateAndGet(sequence, Math::min);
    largestSequence.accumulateAndGet(sequence, Math::max);
    entries.incrementAndGet();
  }

  /**
   * At least what {@link #approximateBytes} grows by when a write batch of {@code encodedBytes}
   * and {@code operations} is inserted: each operation's encoding holds its key and value (or
   * range), and it adds its 8-byte trailer and {@link #ENTRY_OVERHEAD_BYTES}.
   */
  public static long bytesToAdd(long encodedBytes, long operations) {
    return encodedBytes + BOUND_BYTES_PER_OPERATION * operations;
  }

  /** Whether a write of {@code bytes} ({@link #bytesToAdd}) keeps this memtable within {@link #MAX_BYTES}. */
  public boolean hasRoomFor(long bytes) {
    return approximateBytes.get() + bytes <= MAX_BYTES;
  }

  /** The range tombstones added so far (a reader sees at least those added before it asked). */
  public RangeTombstones rangeTombstones() {
    RangeTombstone[] current = rangeDeletions;
    RangeTombstones f = fragmented;
    if (f.size() != current.length) {
      f = RangeTombstones.of(java.util.Arrays.asList(current));
      fragmented = f; // derived data: a race rebuilds it twice, never wrongly
    }
    return f;
  }

  /** A write-batch handler that adds each decoded operation here (for the write path and recovery). */
  public WriteBatchRecords.Handler inserter() {
    return new WriteBatchRecords.Handler() {
      @Override
      public void put(long sequence, byte[] key, byte[] value) {
        add(sequence, ValueType.VALUE, key, value);
      }

      @Override
      public void delete(long sequence, byte[] key) {
        add(sequence, ValueType.DELETION, key, NO_VALUE);
      }

      @Override
      public void merge(long sequence, byte[] key, byte[] operand) {
        add(sequence, ValueType.MERGE, key, operand);
      }

      @Override
      public void deleteRange(long sequence, byte[] from, byte[] to) {
        addRangeDeletion(sequence, from, to);
      }
    };
  }

  /**
   * The newest entry for {@code userKey} with sequence {@code <= snapshotSequence}: {@code FOUND}
   * with a copy of the value (the caller may hand it to a user), {@code DELETED} for a tombstone,
   * or {@code NOT_PRESENT} when this memtable holds no visible entry for the key. Meeting a merge
   * operand is an error ({@link #get(byte[], long, MergeOperands)} collects them).
   */
  public LookupResult get(byte[] userKey, long snapshotSequence) {
    MergeOperands operands = new MergeOperands();
    LookupResult r = get(userKey, snapshotSequence, operands);
    if (!operands.isEmpty()) {
      throw new IllegalStateException("merge operands for a read that collects none");
    }
    return r;
  }

  /**
   * As {@link #get(byte[], long)}, adding the merge operands above the key's newest visible value
   * or tombstone (or above nothing) to {@code operands}, newest first, each a copy.
   */
  public LookupResult get(byte[] userKey, long snapshotSequence, MergeOperands operands) {
    byte[] seekKey = InternalKey.seekKey(userKey, clampSequence(snapshotSequence));
    // A range tombstone here over the key deletes its entries here older than the tombstone.
    long cover = rangeDeletions.length == 0 ? RangeTombstones.NONE
        : rangeTombstones().coverSequence(userKey, snapshotSequence);
    for (int node = table.seek(seekKey); node != 0 && table.sameUserKey(node, seekKey); node = table.next(node)) {
      long trailer = table.trailer(node);
      if ((trailer >>> 8) < cover) {
        return LookupResult.DELETED;
      }
      ValueType type = InternalKey.typeOf(trailer);
      assert type != null : "memtable holds a key of unknown type";
      if (type == ValueType.MERGE) {
        operands.add(table.value(node));
      } else {
        return type == ValueType.DELETION ? LookupResult.DELETED : LookupResult.found(table.value(node));
      }
    }
    return cover == RangeTombstones.NONE ? LookupResult.NOT_PRESENT : LookupResult.DELETED;
  }

  /**
   * An iterator over all entries in internal-key order. It is weakly consistent: it sees every
   * entry added before it was positioned and may or may not see later ones (which carry higher
   * sequences than any snapshot taken earlier). The value it returns is a copy made once per
   * position, shared between calls at that position.
   */
  public InternalIterator iterator() {
    return new MemTableIterator(table);
  }

  /** Key, value and per-entry overhead bytes; drives the switch to a new memtable. */
  public long approximateBytes() {
    return approximateBytes.get();
  }

  public long entries() {
    return entries.get();
  }

  /** Whether nothing was added: no entry and no range tombstone. */
  public boolean isEmpty() {
    return table.first() == 0 && rangeDeletions.length == 0;
  }

  /** The smallest sequence added, or {@link Long#MAX_VALUE} while the memtable is empty. */
  public long smallestSequence() {
    return smallestSequence.get();
  }

  /** The largest sequence added, or -1 while the memtable is empty. */
  public long largestSequence() {
    return largestSequence.get();
  }

  @Override
  public String toString() {
    return "MemTable{entries=" + entries() + ", bytes=" + approximateBytes()
        + ", sequences=[" + smallestSequence() + ", " + largestSequence() + "]}";
  }

  private boolean containsExactly(byte[] internalKey) {
    int node = table.seek(internalKey);
    return node != 0 && table.compare(node, internalKey) == 0;
  }

  /** Internal keys carry 56-bit sequences; "read everything" callers may pass Long.MAX_VALUE. */
  static long clampSequence(long snapshotSequence) {
    return Math.min(snapshotSequence, InternalKey.MAX_SEQUENCE);
  }
}
