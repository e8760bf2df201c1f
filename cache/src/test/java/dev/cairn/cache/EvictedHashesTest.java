package dev.cairn.cache;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class EvictedHashesTest {
  private static long hash(long i) {
    return FrequencySketch.hash(1, i * 4096);
  }

  @Test
  void aReturnCountsOnceAndOnlyWithinTheHorizonAsked() {
    EvictedHashes set = new EvictedHashes();
    set.add(hash(1), 10);
    set.add(hash(2), 11);
    set.add(hash(3), 12);
    assertTrue(set.remove(hash(3), 12, 1), "evicted now: within any horizon");
    assertFalse(set.remove(hash(3), 12, 1), "a return counts once");
    assertFalse(set.remove(hash(1), 12, 2), "evicted two inserts ago");
    assertFalse(set.remove(hash(1), 12, 3), "forgotten by the look that found it too old");
    assertTrue(set.remove(hash(2), 12, 2));
    assertFalse(set.remove(hash(4), 12, Long.MAX_VALUE), "never added");
  }

  @Test
  void holdsAtMostItsSlotsAndKeepsTheLatestMostly() {
    EvictedHashes set = new EvictedHashes();
    set.ensureCapacity(1000);
    assertEquals(1024, set.capacity());
    for (int i = 0; i < 10_000; i++) {
      set.add(hash(i), i);
    }
    int oldKept = 0;
    int newKept = 0;
    for (int i = 0; i < 1000; i++) {
      oldKept += set.remove(hash(i), 10_000, Long.MAX_VALUE) ? 1 : 0;
      newKept += set.remove(hash(9_000 + i), 10_000, Long.MAX_VALUE) ? 1 : 0;
    }
    // After nine refills almost none of the first thousand are left; of the last thousand, added
    // into 1,024 slots, most are.
    assertTrue(oldKept < 50, oldKept + " of the oldest kept");
    assertTrue(newKept > 500, newKept + " of the newest kept");
  }

  @Test
  void growingKeepsWhatItRemembersAndWhen() {
    EvictedHashes set = new EvictedHashes();
    set.add(hash(1), 1);
    set.add(hash(2), 2);
    set.ensureCapacity(4096);
    assertEquals(4096, set.capacity());
    assertTrue(set.remove(hash(2), 2, 1), "still evicted at 2");
    assertFalse(set.remove(hash(1), 2, 1), "still evicted at 1");
  }

  @Test
  void zeroIsNeverRemembered() {
    EvictedHashes set = new EvictedHashes();
    set.add(0, 1);
    assertFalse(set.remove(0, 1, Long.MAX_VALUE));
  }
}
