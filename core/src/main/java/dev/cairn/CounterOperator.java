package dev.cairn;

import java.util.List;

/**
 * The built-in 64-bit counter ({@link MergeOperator#counter()}, RocksDB's {@code uint64add}): a
 * value or operand is a signed 64-bit integer as 8 little-endian bytes; merging adds, wrapping on
 * overflow; a key with no value counts from zero. An operand of another length is refused when it
 * is written; a stored value of another length (written by {@link Cairn#put}) fails the merge that
 * meets it with an {@link IllegalStateException} naming the key.
 */
public final class CounterOperator implements MergeOperator {
  static final CounterOperator INSTANCE = new CounterOperator();

  /** Bytes of a value or operand. */
  public static final int BYTES = Long.BYTES;

  private CounterOperator() {}

  /** The 8-byte encoding of {@code n}: an operand that adds {@code n}, or a value that is {@code n}. */
  public static byte[] encode(long n) {
    byte[] out = new byte[BYTES];
    for (int i = 0; i < BYTES; i++) {
      out[i] = (byte) (n >>> (8 * i));
    }
    return out;
  }

  /**
   * The number an 8-byte value or operand holds.
   *
   * @throws IllegalArgumentException if {@code bytes} is not 8 bytes long
   */
  public static long decode(byte[] bytes) {
    if (bytes == null || bytes.length != BYTES) {
      throw new IllegalArgumentException("a counter is " + BYTES + " bytes, not "
          + (bytes == null ? "null" : bytes.length));
    }
    long n = 0;
    for (int i = BYTES - 1; i >= 0; i--) {
      n = (n << 8) | (bytes[i] & 0xff);
    }
    return n;
  }

  @Override
  public String name() {
    return "counter";
  }

  @Override
  public byte[] fullMerge(byte[] key, byte[] existing, List<byte[]> operands) {
    long sum = 0;
    if (existing != null) {
      if (existing.length != BYTES) {
        throw new IllegalStateException("the value under a counter's operands is " + existing.length + " bytes, not "
            + BYTES);
      }
      sum = decode(existing);
    }
    for (byte[] operand : operands) {
      sum += decode(operand);
    }
    return encode(sum);
  }

  @Override
  public byte[] partialMerge(byte[] key, byte[] older, byte[] newer) {
    return encode(decode(older) + decode(newer));
  }

  @Override
  public void checkOperand(byte[] key, byte[] operand) {
    if (operand.length != BYTES) {
      throw new IllegalArgumentException("a counter operand is " + BYTES + " bytes (CounterOperator.encode), not "
          + operand.length);
    }
  }

  @Override
  public String toString() {
    return name();
  }
}
