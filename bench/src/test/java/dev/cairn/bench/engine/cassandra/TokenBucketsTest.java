package dev.cairn.bench.engine.cassandra;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.datastax.oss.driver.internal.core.metadata.token.Murmur3Token;
import com.datastax.oss.driver.internal.core.metadata.token.Murmur3TokenFactory;
import java.nio.ByteBuffer;
import java.util.HashSet;
import java.util.Set;
import java.util.function.ToLongFunction;
import org.junit.jupiter.api.Test;

/** The token-ordered bucket keys, with the driver's Murmur3 (Cassandra's partitioner) and no node. */
class TokenBucketsTest {
  private static final Murmur3TokenFactory MURMUR3 = new Murmur3TokenFactory();
  private static final ToLongFunction<ByteBuffer> TOKEN = key -> ((Murmur3Token) MURMUR3.hash(key)).getValue();

  @Test
  void tokensIncreaseWithTheBucketAndEachSitsInItsSlice() {
    for (int records : new int[] {1, 7, 8, 1000, 409_600}) {
      TokenBuckets b = TokenBuckets.search(records, 8, TOKEN);
      assertEquals((records + 7) / 8, b.buckets());
      Set<Long> keys = new HashSet<>();
      for (int j = 0; j < b.buckets(); j++) {
        assertEquals(TOKEN.applyAsLong(TokenBuckets.bigint(b.key(j))), b.token(j), "token of bucket " + j);
        assertEquals(j, TokenBuckets.slice(b.token(j), b.buckets()), "slice of bucket " + j);
        if (j > 0) {
          assertTrue(b.token(j) > b.token(j - 1), "token of bucket " + j + " above its predecessor's");
        }
        assertTrue(keys.add(b.key(j)), "distinct keys");
      }
      assertTrue(b.tries() <= TokenBuckets.maxTries(b.buckets()), b.tries() + " tries");
    }
  }

  @Test
  void theSearchNeedsAboutTheCouponCollectorsTries() {
    TokenBuckets b = TokenBuckets.search(51_200 * 8L, 8, TOKEN);
    double expected = b.buckets() * (Math.log(b.buckets()) + 0.58);
    assertTrue(b.tries() < 2 * expected, b.tries() + " tries for " + b.buckets() + " buckets, expected about " + expected);
  }

  @Test
  void idsMapToBucketsInOrderAndOverflowIntoTheLast() {
    TokenBuckets b = TokenBuckets.search(100, 8, TOKEN);
    assertEquals(13, b.buckets());
    assertEquals(0, b.bucketOf(0));
    assertEquals(0, b.bucketOf(7));
    assertEquals(1, b.bucketOf(8));
    assertEquals(12, b.bucketOf(99));
    assertEquals(12, b.bucketOf(1_000_000), "ids past the capacity stay in order in the last bucket");
  }

  @Test
  void slicesCoverTheRingInOrder() {
    assertEquals(0, TokenBuckets.slice(Long.MIN_VALUE, 4));
    assertEquals(1, TokenBuckets.slice(-1L << 62, 4));
    assertEquals(2, TokenBuckets.slice(0, 4));
    assertEquals(3, TokenBuckets.slice(Long.MAX_VALUE, 4));
    assertEquals(6, TokenBuckets.slice(Long.MAX_VALUE, 7));
    assertEquals(0, TokenBuckets.slice(Long.MAX_VALUE, 1));
  }

  @Test
  void aTokenFunctionThatMissesSlicesFailsWithinTheBound() {
    IllegalStateException e = assertThrows(IllegalStateException.class,
        () -> TokenBuckets.search(64, 8, key -> 0L)); // every key in one slice
    assertTrue(e.getMessage().contains("7 of 8"), e.getMessage());
  }
}
