package dev.cairn;

import java.util.List;

/**
 * Combines a key's merge operands ({@link Cairn#merge}) with its older value: RocksDB's {@code
 * MergeOperator}. Set with {@link Options.Builder#mergeOperator}; a database that holds operands
 * must be opened with the same operator every time (its {@link #name()} is not recorded: a
 * different operator reads the operands differently).
 *
 * <p><b>When it runs</b>: a read ({@link Cairn#get}, iterators in both directions, at a snapshot
 * or not) that finds operands above a key's newest value or tombstone hands it that value (or
 * null) and the operands, oldest first; a compaction that holds a key's operands together with
 * the value below them writes the merged value in their place, and one that holds only operands
 * combines neighbours with {@link #partialMerge} where the operator allows. Flushes keep operands
 * as they are. So a key's operands may be combined in any grouping, in any thread and more than
 * once: the operator must be <b>associative</b>, deterministic and thread-safe, and must not keep
 * or modify the arrays it is given.
 *
 * <p><b>Failures</b>: an exception from {@link #fullMerge} in a read reaches the reader as a {@link
 * CairnException} naming the key; in a compaction it fails the compaction and stops writes, as an
 * I/O error does ({@link BackgroundErrorException}), losing nothing. {@link #checkOperand} lets
 * the operator refuse a malformed operand when it is written, before anything is stored.
 *
 * <p>Merges are refused in a database with a time to live ({@link Options.Builder#ttl}).
 */
public interface MergeOperator {
  /** A name for messages and {@link Options#toString()}. */
  String name();

  /**
   * The value of {@code key} after {@code operands} (oldest first, at least one) are applied to
   * {@code existing} (null when the key had no value, or was deleted). Must not return null.
   */
  byte[] fullMerge(byte[] key, byte[] existing, List<byte[]> operands);

  /**
   * One operand equivalent to applying {@code older} then {@code newer}, or null when the two
   * cannot be combined without the value below (the default: compactions then keep both).
   */
  default byte[] partialMerge(byte[] key, byte[] older, byte[] newer) {
    return null;
  }

  /**
   * Refuses an operand this operator could not apply, before the write stores anything.
   *
   * @throws IllegalArgumentException naming what is wrong with it
   */
  default void checkOperand(byte[] key, byte[] operand) {}

  /** A 64-bit counter: values and operands are 8-byte little-endian longs, added with wraparound. */
  static MergeOperator counter() {
    return CounterOperator.INSTANCE;
  }
}
