package dev.cairn.memtable;

import dev.cairn.WriteBatch;
import dev.cairn.iter.InternalIterator;
import dev.cairn.key.InternalKey;
import dev.cairn.key.InternalKeyComparator;
import dev.cairn.key.LookupResult;
import dev.cairn.key.ValueType;
import java.util.Map;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The in-memory write buffer: every write lands here (after the WAL) until the memtable is
 * frozen and flushed to a level-0 table.
 *
 * <p>Entries are kept in a {@link ConcurrentSkipListMap} from encoded internal key ({@link
 * InternalKey}: user key + 8-byte trailer {@code sequence << 8 | type}) to value, ordered by
 * {@link InternalKeyComparator}. Sequences are unique, so an internal key is never inserted twice
 * and nothing is ever overwritten or removed: the memtable only grows until it is dropped.
 *
 * <p><b>Why {@code ConcurrentSkipListMap} and not an arena skiplist.</b> It is lock-free, lets any
 * number of readers run while writers insert, and its iterators are weakly consistent, which is
 * all the memtable needs: an entry added after a reader's snapshot has a higher sequence and is
 * skipped by that reader anyway. A LevelDB-style arena skiplist (keys and values packed into large
 * byte arrays, nodes as int offsets) would cut the per-entry overhead (about {@value
 * #ENTRY_OVERHEAD_BYTES} bytes here: a node, two array headers and the index towers) and the GC
 * pressure, but it is only worth its complexity with a JMH result that shows it;
 * {@code jmh/.../MemTableBench} is the baseline it would have to beat. Until then the JDK
 * structure is the well-tested choice.
 *
 * <p>Thread-safety: all methods are safe to call concurrently. {@link #add} may be called from
 * several threads at once (group commit normally inserts from one thread).
 */
public final class MemTable {
  /**
   * Estimated heap bytes per entry beyond the key and value bytes: the skiplist node (~24 bytes),
   * two {@code byte[]} headers (16 each) and the index nodes of its tower (on average well under
   * one 24-byte index node per entry), rounded up.
   */
  public static final int ENTRY_OVERHEAD_BYTES = 64;

  /** The value of every tombstone; shared because nothing ever modifies a stored value. */
  private static final byte[] NO_VALUE = new byte[0];

  private final ConcurrentSkipListMap<byte[], byte[]> table =
      new ConcurrentSkipListMap<>(InternalKeyComparator.INSTANCE);

  // Statistics, updated after each insert; readers may see them lag the map by one entry.
  private final AtomicLong approximateBytes = new AtomicLong();
  private final AtomicLong entries = new AtomicLong();
  private final AtomicLong smallestSequence = new AtomicLong(Long.MAX_VALUE);
  private final AtomicLong largestSequence = new AtomicLong(-1);

  /**
   * Adds one entry. {@code value} must be an empty array for a {@link ValueType#DELETION}. The
   * memtable keeps a reference to {@code value} (a write batch decodes fresh arrays), so the
   * caller must not modify it afterwards.
   *
   * <p>Requires: {@code sequence} is unique across all adds to this memtable.
   */
  public void add(long sequence, ValueType type, byte[] userKey, byte[] value) {
    assert type != ValueType.DELETION || value.length == 0 : "a tombstone carries no value";
    byte[] internalKey = InternalKey.encode(userKey, sequence, type);
    byte[] previous = table.put(internalKey, value);
    assert previous == null : "sequence reused: " + InternalKey.describe(internalKey);
    approximateBytes.addAndGet(internalKey.length + value.length + ENTRY_OVERHEAD_BYTES);
    smallestSequence.accumulateAndGet(sequence, Math::min);
    largestSequence.accumulateAndGet(sequence, Math::max);
    entries.incrementAndGet();
  }

  /** A write-batch handler that adds each decoded operation here (for the write path and recovery). */
  public WriteBatch.Handler inserter() {
    return new WriteBatch.Handler() {
      @Override
      public void put(long sequence, byte[] key, byte[] value) {
        add(sequence, ValueType.VALUE, key, value);
      }

      @Override
      public void delete(long sequence, byte[] key) {
        add(sequence, ValueType.DELETION, key, NO_VALUE);
      }
    };
  }

  /**
   * The newest entry for {@code userKey} with sequence {@code <= snapshotSequence}: {@code FOUND}
   * with a copy of the value (the caller may hand it to a user), {@code DELETED} for a tombstone,
   * or {@code NOT_PRESENT} when this memtable holds no visible entry for the key.
   */
  public LookupResult get(byte[] userKey, long snapshotSequence) {
    byte[] seekKey = InternalKey.seekKey(userKey, clampSequence(snapshotSequence));
    Map.Entry<byte[], byte[]> entry = table.ceilingEntry(seekKey);
    if (entry == null || InternalKey.compareUserKeys(entry.getKey(), seekKey) != 0) {
      return LookupResult.NOT_PRESENT;
    }
    ValueType type = InternalKey.type(entry.getKey());
    assert type != null : "memtable holds a key of unknown type";
    return type == ValueType.DELETION
        ? LookupResult.DELETED
        : LookupResult.found(entry.getValue().clone());
  }

  /**
   * An iterator over all entries in internal-key order. It is weakly consistent: it sees every
   * entry added before it was positioned and may or may not see later ones (which carry higher
   * sequences than any snapshot taken earlier). The arrays it returns belong to the memtable.
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

  public boolean isEmpty() {
    return table.isEmpty();
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

  /** Internal keys carry 56-bit sequences; "read everything" callers may pass Long.MAX_VALUE. */
  static long clampSequence(long snapshotSequence) {
    return Math.min(snapshotSequence, InternalKey.MAX_SEQUENCE);
  }
}
