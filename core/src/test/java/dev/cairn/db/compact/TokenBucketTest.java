package dev.cairn.db.compact;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** {@link TokenBucket}'s decisions on a driven clock: who waits, how long, and what a burst may take. */
class TokenBucketTest {
  private final AtomicLong now = new AtomicLong(1_000_000_000L);

  private TokenBucket bucket(double rate) {
    return new TokenBucket(rate, now::get);
  }

  private static final long SECOND = 1_000_000_000L;

  @Test
  void aCallerTakesItsPermitsAtOnceAndTheNextOnePaysForThem() {
    TokenBucket b = bucket(1000);
    assertEquals(0, b.reserve(500), "nothing owed before: no wait");
    assertEquals(SECOND / 2, b.reserve(1000), "waits for the 500 taken before it");
    assertEquals(SECOND * 3 / 2, b.reserve(1), "and the next for the 1,500 taken before it");
  }

  @Test
  void idleTimeSavesUpToOneSecondOfPermits() {
    TokenBucket b = bucket(1000);
    now.addAndGet(10 * SECOND); // idle long: at most one second (1,000 permits) is saved
    assertEquals(0, b.reserve(1000));
    assertEquals(0, b.reserve(0), "the saved permits paid for all of it: nothing owed");
    assertEquals(0, b.reserve(500));
    assertEquals(SECOND / 2, b.reserve(1), "beyond the burst the permits are paid for again");
  }

  @Test
  void aNewRateAppliesToThePermitsNotYetPaidFor() {
    TokenBucket b = bucket(1000);
    b.reserve(1000); // owed: one second at 1,000/s
    b.setRate(4000);
    assertEquals(4000, b.rate());
    assertEquals(SECOND, b.reserve(2000), "what was reserved keeps its time");
    assertEquals(SECOND + SECOND / 2, b.reserve(1), "the 2,000 after it pay at the new rate");
  }

  @Test
  void refusesNonsense() {
    assertThrows(IllegalArgumentException.class, () -> bucket(0));
    assertThrows(IllegalArgumentException.class, () -> bucket(Double.NaN));
    assertThrows(IllegalArgumentException.class, () -> bucket(1).reserve(-1));
  }
}
