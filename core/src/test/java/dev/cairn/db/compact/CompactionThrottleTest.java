package dev.cairn.db.compact;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.cairn.fs.IoStats;
import dev.cairn.fs.IoTag;
import org.junit.jupiter.api.Test;

/** What DLC's throttle charges: compaction reads plus writes, each byte once, never flushes. */
class CompactionThrottleTest {
  @Test
  void chargesCompactionReadsAndWritesOnceAndNothingElse() {
    IoStats io = new IoStats();
    io.recordWrite(IoTag.compaction(1), 5_000); // before the throttle existed: not charged
    // A rate so high that pace() never waits noticeably.
    CompactionThrottle throttle = new CompactionThrottle(io, 1e15);
    io.recordRead(IoTag.compaction(1), 300);
    io.recordWrite(IoTag.compaction(2), 700);
    io.recordWrite(IoTag.FLUSH, 1_000_000);
    io.recordWrite(IoTag.WAL, 1_000_000);
    io.recordRead(IoTag.USER_READ, 1_000_000);
    throttle.pace();
    assertEquals(1_000, throttle.chargedBytes());
    throttle.pace(); // nothing new: nothing charged twice
    assertEquals(1_000, throttle.chargedBytes());
    io.recordRead(IoTag.compaction(3), 24);
    throttle.pace();
    assertEquals(1_024, throttle.chargedBytes());
    throttle.setRate(2e15);
    assertEquals(2e15, throttle.rate());
  }
}
