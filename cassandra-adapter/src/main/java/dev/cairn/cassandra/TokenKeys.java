package dev.cairn.cassandra;

import java.nio.ByteBuffer;

/**
 * Cassandra partition positions as Cairn's model keys: byte strings whose unsigned bytewise order
 * is Cassandra's own order of decorated keys (token first, then the key's bytes unsigned, as
 * {@code DecoratedKey.compareTo} does). With that, the leveled picker's ranges, overlaps and
 * compaction pointers mean in the model exactly what they mean in Cassandra.
 *
 * <p>Layout: the Murmur3 token as 8 bytes big-endian with the sign bit flipped (so that signed
 * order becomes unsigned byte order), then the partition key's bytes. Only partitioners with
 * {@code long} tokens (Murmur3Partitioner, Cassandra's default) are supported; the strategy
 * refuses others when a table is created or altered.
 */
public final class TokenKeys {
  private TokenKeys() {}

  public static byte[] encode(long token, ByteBuffer partitionKey) {
    ByteBuffer key = partitionKey.duplicate();
    byte[] out = new byte[Long.BYTES + key.remaining()];
    long flipped = token ^ Long.MIN_VALUE;
    for (int i = 0; i < Long.BYTES; i++) {
      out[i] = (byte) (flipped >>> (56 - 8 * i));
    }
    key.get(out, Long.BYTES, key.remaining());
    return out;
  }

  /** The token of an encoded key (for logs and tests). */
  public static long token(byte[] encoded) {
    if (encoded.length < Long.BYTES) {
      throw new IllegalArgumentException("an encoded key has at least 8 bytes: " + encoded.length);
    }
    long flipped = 0;
    for (int i = 0; i < Long.BYTES; i++) {
      flipped = (flipped << 8) | (encoded[i] & 0xFF);
    }
    return flipped ^ Long.MIN_VALUE;
  }
}
