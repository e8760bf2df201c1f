package dev.cairn.table;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cairn.table.filter.BloomFilter;
import dev.cairn.table.filter.BloomFilterBuilder;
import dev.cairn.table.filter.BloomHash;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class BloomFilterTest {
  private static byte[] key(String prefix, int i) {
    return (prefix + i).getBytes(StandardCharsets.UTF_8);
  }

  private static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  @Test
  void encodeGivesBackTheBlockItWasDecodedFrom() {
    BloomFilterBuilder b = new BloomFilterBuilder(10);
    for (int i = 0; i < 500; i++) {
      b.addKey(key("user", i));
    }
    byte[] block = b.finish();
    assertArrayEquals(block, BloomFilter.decode(block, "t", 0).encode());
  }

  @Test
  void noFalseNegativesAndFalsePositiveRateNearOnePercent() {
    BloomFilterBuilder b = new BloomFilterBuilder(10);
    int n = 10_000;
    for (int i = 0; i < n; i++) {
      b.addKey(key("user", i));
    }
    BloomFilter f = BloomFilter.decode(b.finish(), "t", 0);
    assertEquals(7, f.probes());
    for (int i = 0; i < n; i++) {
      assertTrue(f.mayContain(key("user", i)), "false negative for key " + i);
    }
    int falsePositives = 0;
    int probes = 100_000;
    for (int i = 0; i < probes; i++) {
      if (f.mayContain(key("absent", i))) {
        falsePositives++;
      }
    }
    double rate = (double) falsePositives / probes;
    assertTrue(rate >= 0.005 && rate <= 0.02, "false-positive rate " + rate);
  }

  @Test
  void emptyFilterMatchesNothing() {
    BloomFilter f = BloomFilter.decode(new BloomFilterBuilder(10).finish(), "t", 0);
    assertFalse(f.mayContain(key("x", 1)));
  }

  @Test
  void hashIsPinned() {
    // The hash is part of the on-disk format (docs/format.md section 5): never change these.
    assertEquals(0x9ca066f1a4ab2eeaL, BloomHash.hash64(new byte[0]));
    assertEquals(0x746e818e446ce0f1L, BloomHash.hash64(bytes("a")));
    assertEquals(0x75e87a7ef6f5cb1eL, BloomHash.hash64(bytes("abcdefgh")));
    assertEquals(0xdad0b73e9d74c10eL, BloomHash.hash64(bytes("abcdefghi")));
  }
}
