package dev.cairn.iter;

import dev.cairn.key.InternalKey;
import dev.cairn.key.Merger;
import dev.cairn.key.ValueType;
import java.util.ArrayList;
import java.util.List;

/**
 * The merge operands at the top of one snapshot stripe of a user key that a compaction has read
 * but not yet kept ({@link CompactionOutputIterator}), newest first, and the two ways they leave:
 * merged onto the stripe's base into one value, or kept as operands with neighbours combined.
 */
final class PendingOperands {
  private final Merger merger;
  private final List<byte[]> keys = new ArrayList<>();
  private final List<byte[]> values = new ArrayList<>();
  /** Operands merged into a value or combined with a neighbour so far. */
  private long merged;

  PendingOperands(Merger merger) {
    this.merger = merger;
  }

  /** Adds an operand older than those added before. */
  void add(byte[] internalKey, byte[] operand) {
    keys.add(internalKey);
    values.add(operand);
  }

  boolean isEmpty() {
    return keys.isEmpty();
  }

  long merged() {
    return merged;
  }

  /**
   * Appends one value to {@code outKeys}/{@code outValues}: the operands merged onto {@code base}
   * (null: none), with the newest operand's sequence.
   */
  void mergeOnto(byte[] userKey, byte[] base, List<byte[]> outKeys, List<byte[]> outValues) {
    outKeys.add(InternalKey.encode(userKey, InternalKey.sequence(keys.get(0)), ValueType.VALUE));
    outValues.add(merger.fullMerge(userKey, base, new ArrayList<>(values)));
    merged += keys.size();
    clear();
  }

  /**
   * Appends the operands as operands, newest first, neighbours combined by the operator's partial
   * merge where it allows (each result takes the sequence of the newer operand of the pair).
   */
  void keepAsOperands(byte[] userKey, List<byte[]> outKeys, List<byte[]> outValues) {
    int last = keys.size() - 1;
    byte[] runKey = keys.get(last);
    byte[] runValue = values.get(last);
    List<byte[]> runKeys = new ArrayList<>();
    List<byte[]> runValues = new ArrayList<>();
    for (int i = last - 1; i >= 0; i--) { // oldest to newest
      byte[] combined = merger.partialMerge(userKey, runValue, values.get(i));
      if (combined != null) {
        runValue = combined;
        merged++;
      } else {
        runKeys.add(runKey);
        runValues.add(runValue);
        runValue = values.get(i);
      }
      runKey = keys.get(i);
    }
    runKeys.add(runKey);
    runValues.add(runValue);
    for (int i = runKeys.size() - 1; i >= 0; i--) { // newest first, as the output orders them
      outKeys.add(runKeys.get(i));
      outValues.add(runValues.get(i));
    }
    clear();
  }

  private void clear() {
    keys.clear();
    values.clear();
  }
}
