package dev.cairn.testing;

import dev.cairn.MergeOperator;
import java.util.Arrays;
import java.util.List;

/**
 * A merge operator for tests that appends each operand to the value: associative, and unlike a
 * counter it tells every order and grouping of the operands apart, so a misplaced, lost or
 * repeated operand shows in the value. Combines two operands by appending too.
 */
public final class AppendOperator implements MergeOperator {
  public static final AppendOperator INSTANCE = new AppendOperator();

  private AppendOperator() {}

  @Override
  public String name() {
    return "append";
  }

  @Override
  public byte[] fullMerge(byte[] key, byte[] existing, List<byte[]> operands) {
    byte[] out = existing == null ? new byte[0] : existing;
    for (byte[] operand : operands) {
      out = concat(out, operand);
    }
    return out;
  }

  @Override
  public byte[] partialMerge(byte[] key, byte[] older, byte[] newer) {
    return concat(older, newer);
  }

  /** {@code a} then {@code b}: what a merge of operand {@code b} onto value {@code a} reads as. */
  public static byte[] concat(byte[] a, byte[] b) {
    byte[] out = Arrays.copyOf(a, a.length + b.length);
    System.arraycopy(b, 0, out, a.length, b.length);
    return out;
  }
}
