package dev.cairn.db.base;

import dev.cairn.MergeOperator;
import dev.cairn.WriteBatch;
import dev.cairn.key.UserKeys;
import dev.cairn.wal.WriteBatchRecords;

/** The checks a batch with merges passes before anything of it is stored. */
public final class MergeWrites {
  private MergeWrites() {}

  /**
   * Refuses {@code batch} when the database has no merge operator or the operator refuses one of
   * its operands ({@link MergeOperator#checkOperand}).
   *
   * @throws IllegalArgumentException naming the problem and, for an operand, its key
   */
  public static void check(WriteBatch batch, MergeOperator operator) {
    if (operator == null) {
      throw new IllegalArgumentException("the database has no merge operator (Options.Builder.mergeOperator):"
          + " the write's " + batch.merges() + " merge(s) are refused");
    }
    WriteBatchRecords.decode(WriteBatchRecords.encode(batch, 0), "write batch", 0, new WriteBatchRecords.Handler() {
      @Override
      public void put(long sequence, byte[] key, byte[] value) {}

      @Override
      public void delete(long sequence, byte[] key) {}

      @Override
      public void deleteRange(long sequence, byte[] from, byte[] to) {}

      @Override
      public void merge(long sequence, byte[] key, byte[] operand) {
        try {
          operator.checkOperand(key, operand);
        } catch (IllegalArgumentException e) {
          throw new IllegalArgumentException("merge operand of key " + UserKeys.printable(key) + " refused by "
              + operator.name() + ": " + e.getMessage(), e);
        }
      }
    });
  }
}
