package dev.cairn.table;

import dev.cairn.key.InternalKey;
import dev.cairn.key.MergeOperands;
import dev.cairn.table.filter.BloomHash;

/**
 * One point read's key, prepared once for every table the read consults (LevelDB's LookupKey):
 * the user key, the snapshot, the internal key a table seeks to, and the key's Bloom hash. A get
 * may consult a table per level and, through a compaction buffer, several buffer files per
 * level, each with a filter probe and an index seek: building the seek key and hashing the key
 * once per read instead of once per table is what this saves.
 *
 * <p>Confined to the reading thread: the hash is computed on first use (a read answered by the
 * memtable never needs it) without synchronization.
 */
public final class LookupKey {
  private final byte[] userKey;
  private final long sequence;
  private final MergeOperands operands;
  private byte[] seekKey;
  private long bloomHash;
  private boolean hashed;
  private int blockReads;
  private long blockReadNanos;

  /** @param sequence the snapshot: entries with a larger sequence are invisible */
  public LookupKey(byte[] userKey, long sequence) {
    this(userKey, sequence, new MergeOperands());
  }

  /** @param operands the merge operands the read met before the tables (in memtables) */
  public LookupKey(byte[] userKey, long sequence, MergeOperands operands) {
    this.userKey = userKey;
    this.sequence = sequence;
    this.operands = operands;
  }

  /**
   * The merge operands met so far, newest first: a table adds those above the key's newest value
   * or tombstone in it, and the read resolves them where the search ends.
   */
  public MergeOperands operands() {
    return operands;
  }

  public byte[] userKey() {
    return userKey;
  }

  /** The snapshot: entries with a larger sequence are invisible. */
  public long sequence() {
    return sequence;
  }

  /** The smallest internal key for the user key visible at the snapshot. */
  byte[] seekKey() {
    if (seekKey == null) {
      seekKey = InternalKey.seekKey(userKey, sequence);
    }
    return seekKey;
  }

  /**
   * Data blocks this read has read from the device so far (block cache misses): the caller
   * attributes them to the level, or the buffer, whose tables it consulted in between.
   */
  public int blockReads() {
    return blockReads;
  }

  /** The time those block reads took, read and verified: what this read's misses cost. */
  public long blockReadNanos() {
    return blockReadNanos;
  }

  void noteBlockRead(long nanos) {
    blockReads++;
    blockReadNanos += nanos;
  }

  /** The user key's Bloom hash (docs/format.md section 5). */
  long bloomHash() {
    if (!hashed) {
      bloomHash = BloomHash.hash64(userKey);
      hashed = true;
    }
    return bloomHash;
  }
}
