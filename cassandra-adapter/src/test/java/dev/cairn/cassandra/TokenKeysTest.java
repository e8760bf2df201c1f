package dev.cairn.cassandra;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.cairn.model.UserKeyOrder;
import java.nio.ByteBuffer;
import java.util.Random;
import org.apache.cassandra.db.BufferDecoratedKey;
import org.apache.cassandra.db.DecoratedKey;
import org.apache.cassandra.dht.Murmur3Partitioner;
import org.junit.jupiter.api.Test;

class TokenKeysTest {

  @Test
  void encodedOrderIsCassandrasDecoratedKeyOrder() {
    Random random = new Random(42);
    long[] tokens = {Long.MIN_VALUE, Long.MIN_VALUE + 1, -1, 0, 1, Long.MAX_VALUE - 1, Long.MAX_VALUE};
    for (int i = 0; i < 20_000; i++) {
      // Few distinct tokens and short keys, so equal tokens (collisions) and prefixes occur.
      long ta = random.nextBoolean() ? tokens[random.nextInt(tokens.length)] : random.nextLong();
      long tb = random.nextInt(4) == 0 ? ta : random.nextLong();
      ByteBuffer ka = randomKey(random);
      ByteBuffer kb = random.nextInt(8) == 0 ? ka.duplicate() : randomKey(random);
      DecoratedKey a = new BufferDecoratedKey(new Murmur3Partitioner.LongToken(ta), ka);
      DecoratedKey b = new BufferDecoratedKey(new Murmur3Partitioner.LongToken(tb), kb);
      int expected = Integer.signum(a.compareTo(b));
      int actual = Integer.signum(UserKeyOrder.compare(TokenKeys.encode(ta, ka), TokenKeys.encode(tb, kb)));
      assertEquals(expected, actual, "tokens " + ta + ", " + tb);
    }
  }

  @Test
  void theTokenComesBack() {
    for (long t : new long[] {Long.MIN_VALUE, -5, 0, 7, Long.MAX_VALUE}) {
      assertEquals(t, TokenKeys.token(TokenKeys.encode(t, ByteBuffer.wrap(new byte[] {1, 2}))));
    }
  }

  @Test
  void encodingLeavesTheCallersBufferWhereItWas() {
    ByteBuffer key = ByteBuffer.wrap(new byte[] {9, 8, 7});
    TokenKeys.encode(1, key);
    assertEquals(0, key.position());
  }

  private static ByteBuffer randomKey(Random random) {
    byte[] bytes = new byte[random.nextInt(4)];
    for (int i = 0; i < bytes.length; i++) {
      bytes[i] = (byte) (random.nextInt(3) == 0 ? 0xF0 + random.nextInt(16) : random.nextInt(4));
    }
    return ByteBuffer.wrap(bytes);
  }
}
