package dev.cairn.compaction.dlc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The load model driven by a simulated clock and scripted counters: counters in, classes out. */
class LoadModelTest {
  private static final long SECOND = 1_000_000_000L;
  private static final int BLOCK = 4096;

  /** A clock and counter source the test advances by hand. */
  private static final class Script implements DlcClock, LoadCounters {
    long now;
    long inserts;
    long gets;
    long scans;

    @Override
    public long nanoTime() {
      return now;
    }

    @Override
    public Sample sample() {
      return new Sample(inserts, gets, scans);
    }

    /** One interval of {@code seconds} during which the clients missed {@code blocks} blocks. */
    void interval(double seconds, long blocks) {
      now += (long) (seconds * SECOND);
      inserts += blocks;
    }
  }

  private static DlcConfig config() {
    // high 40 MB/s, low 20 MB/s, device 100 MB/s, floor 10 MB/s, ε 1 MB/s
    return DlcConfig.builder()
        .ioLimitBytesPerSecond(100_000_000).ioHighLimitBytesPerSecond(40_000_000)
        .ioLowLimitBytesPerSecond(20_000_000).softness(3)
        .minCompactionBytesPerSecond(10_000_000).rateBufferBytesPerSecond(1_000_000).build();
  }

  /** Blocks whose bytes make {@code mbPerSecond} over one second. */
  private static long blocksFor(double mbPerSecond) {
    return Math.round(mbPerSecond * 1_000_000 / BLOCK);
  }

  @Test
  void firstObservationIsABaselineAndTheLoadStartsLow() {
    Script s = new Script();
    LoadModel model = new LoadModel(config(), BLOCK, s, s);
    s.inserts = 1_000_000; // history before the monitor started does not count
    LoadEstimate e = model.tick();
    assertEquals(0, e.intervals());
    assertEquals(LoadClass.LOW, e.load());
    s.interval(1, 0);
    assertEquals(0.0, model.tick().clientBytesPerSecond());
  }

  @Test
  void equationSixIsGammaTimesBlocksTimesBlockBytesOverTheMeasuredInterval() {
    Script s = new Script();
    LoadModel model = new LoadModel(config().toBuilder().compressionRatio(0.5).build(), BLOCK, s, s);
    model.tick();
    s.interval(2.0, 1000); // a late tick: the measured 2 s divide, not the configured 1 s
    LoadEstimate e = model.tick();
    assertEquals(0.5 * 1000 * BLOCK / 2.0, e.clientBytesPerSecond(), 1e-6);
    assertEquals(2 * SECOND, e.intervalNanos());
  }

  @Test
  void equationThreeWeighsGetsAndScans() {
    Script s = new Script();
    DlcConfig c = config().toBuilder().estimator(DlcConfig.Estimator.WEIGHTED_OPS)
        .getCostBytes(1000).scanCostBytes(5000).build();
    LoadModel model = new LoadModel(c, BLOCK, s, s);
    model.tick();
    s.now += SECOND / 2;
    s.gets += 300;
    s.scans += 10;
    s.inserts += 999_999; // ignored by Eq. 3
    assertEquals((300 * 1000 + 10 * 5000) / 0.5, model.tick().clientBytesPerSecond(), 1e-6);
  }

  @Test
  void highAtOnceButLowOnlyAfterSoftnessConsecutiveLowIntervals() {
    Script s = new Script();
    LoadModel model = new LoadModel(config(), BLOCK, s, s);
    model.tick();
    double[] mbPerSecond = {50, 10, 10, 30, 10, 10, 10, 45, 5};
    List<String> trace = new ArrayList<>();
    for (double mb : mbPerSecond) {
      s.interval(1, blocksFor(mb));
      LoadEstimate e = model.tick();
      trace.add(Math.round(e.clientBytesPerSecond() / 1e6) + "MB/s " + e.load() + " streak " + e.lowStreak());
    }
    assertEquals(List.of(
        "50MB/s HIGH streak 0",
        "10MB/s HIGH streak 1",
        "10MB/s HIGH streak 2",
        "30MB/s HIGH streak 0", // between the limits: the streak starts over
        "10MB/s HIGH streak 1",
        "10MB/s HIGH streak 2",
        "10MB/s LOW streak 3",
        "45MB/s HIGH streak 0",
        "5MB/s HIGH streak 1"), trace);
  }

  @Test
  void compactionRateIsDeviceLimitMinusClientMinusBufferFloored() {
    Script s = new Script();
    LoadModel model = new LoadModel(config(), BLOCK, s, s);
    assertEquals(99_000_000, model.current().compactionBytesPerSecond(), 1e-6);
    model.tick();
    s.interval(1, blocksFor(30));
    assertEquals(100_000_000 - 30_000_000 - 1_000_000, model.tick().compactionBytesPerSecond(), 5_000);
    s.interval(1, blocksFor(95));
    assertEquals(10_000_000, model.tick().compactionBytesPerSecond(), 1e-6);
  }

  @Test
  void aCounterGoingBackwardsOrAClockStandingStillMeasuresNothing() {
    Script s = new Script();
    LoadModel model = new LoadModel(config(), BLOCK, s, s);
    s.inserts = 5000;
    model.tick();
    s.interval(1, 0);
    s.inserts = 10; // a reset cache
    assertEquals(0.0, model.tick().clientBytesPerSecond());
    LoadEstimate before = model.current();
    s.inserts += 1_000_000;
    assertEquals(before, model.tick()); // same instant: unchanged
  }

  @Test
  void configValidationNamesTheBadOption() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> DlcConfig.builder().ioLowLimitBytesPerSecond(60_000_000).build());
    assertEquals("dlc: ioLowLimitBytesPerSecond = 60000000 is out of range [0, 48000000]", e.getMessage());
    assertThrows(IllegalArgumentException.class, () -> DlcConfig.builder().softness(0).build());
    assertThrows(IllegalArgumentException.class, () -> DlcConfig.builder().compressionRatio(Double.NaN).build());
    assertThrows(IllegalArgumentException.class, () -> DlcConfig.builder().partTriggerFreshFiles(1).build());
    assertEquals(DlcConfig.defaults(), DlcConfig.defaults().toBuilder().build());
  }
}
