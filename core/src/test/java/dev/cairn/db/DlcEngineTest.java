package dev.cairn.db;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cairn.Cairn;
import dev.cairn.Options;
import dev.cairn.Stats;
import dev.cairn.compaction.dlc.DlcConfig;
import dev.cairn.compaction.dlc.LoadClass;
import dev.cairn.compaction.dlc.LoadCounters;
import dev.cairn.config.CompactionSettings;
import dev.cairn.db.compact.DlcRuntime;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The engine under Delayed L0 Compaction with a scripted load: the monitor's interval is an hour,
 * so it never ticks, and the test feeds the load model through {@link DlcRuntime#observe} with a
 * simulated clock and block-cache counters. Waits are for background work to finish, bounded,
 * never assertions on time.
 */
class DlcEngineTest {
  private static final long SECOND = 1_000_000_000L;

  @TempDir Path dir;

  private long now;
  private long blocks;

  private static Options options(int partTrigger, int fullTrigger) {
    return Options.builder()
        .memtableBytes(64 << 10)
        .blockBytes(4096)
        .targetFileBytes(64 << 10)
        .l0CompactionTrigger(2)
        .l0SlowdownTrigger(10)
        .l0StopTrigger(14)
        .backgroundThreads(3)
        .compaction(CompactionSettings.leveled(CompactionSettings.Table.defaults(), DlcConfig.builder()
            .intervalMillis(3_600_000)
            .ioHighLimitBytesPerSecond(40_000_000)
            .ioLowLimitBytesPerSecond(20_000_000)
            .softness(3)
            .partTriggerFreshFiles(partTrigger)
            .fullTriggerL0Files(fullTrigger)
            .partRunsBeforeFull(2)
            .build()))
        .build();
  }

  /** One scripted interval of a second in which the clients missed {@code mbPerSecond} of blocks. */
  private LoadClass interval(DbImpl db, double mbPerSecond) {
    now += SECOND;
    blocks += Math.round(mbPerSecond * 1_000_000 / 4096);
    return ((DlcRuntime) db.compactions().scheduler()).observe(now, new LoadCounters.Sample(blocks, 0, 0)).load();
  }

  private void highLoad(DbImpl db) {
    ((DlcRuntime) db.compactions().scheduler()).observe(now, new LoadCounters.Sample(blocks, 0, 0));
    assertEquals(LoadClass.HIGH, interval(db, 100));
  }

  private static void writeTable(Cairn db, TreeMap<String, byte[]> model, SplittableRandom r, int table) {
    for (int i = 0; i < 200; i++) {
      String key = String.format("k%04d", r.nextInt(2000));
      byte[] value = ("t" + table + "-" + i).getBytes(StandardCharsets.UTF_8);
      db.put(key.getBytes(StandardCharsets.UTF_8), value);
      model.put(key, value);
    }
    db.flush();
  }

  /** Waits (bounded) until background work brings the stats to {@code condition}. */
  private static Stats await(Cairn db, Predicate<Stats> condition, String what) {
    long deadline = System.nanoTime() + 60 * SECOND;
    Stats s = db.stats();
    while (!condition.test(s)) {
      assertTrue(System.nanoTime() < deadline, "timed out waiting for " + what + "; stats:\n" + s);
      try {
        Thread.sleep(5);
      } catch (InterruptedException e) {
        throw new AssertionError(e);
      }
      s = db.stats();
    }
    return s;
  }

  private static int running(DbImpl db) {
    db.engine().mutex().lock();
    try {
      return db.compactions().running();
    } finally {
      db.engine().mutex().unlock();
    }
  }

  private static void checkAll(Cairn db, TreeMap<String, byte[]> model, long seed) {
    model.forEach((k, v) -> assertArrayEquals(v, db.get(k.getBytes(StandardCharsets.UTF_8)),
        "key " + k + ", seed " + seed));
  }

  @Test
  void highLoadDelaysL0CompactionsAndLowLoadReleasesThem() {
    long seed = new SplittableRandom().nextLong();
    SplittableRandom r = new SplittableRandom(seed);
    TreeMap<String, byte[]> model = new TreeMap<>();
    try (Cairn cairn = Cairn.open(dir, options(8, 9))) {
      DbImpl db = (DbImpl) cairn;
      highLoad(db);
      for (int t = 0; t < 5; t++) {
        writeTable(cairn, model, r, t);
      }
      Stats held = cairn.stats();
      // Trigger 2, yet all five flushes stay in L0: DLC holds the L0->L1 compaction back.
      assertEquals(5, held.levels().get(0).files(), held.toString());
      assertEquals(0, held.compaction().completed(), held.toString());
      assertEquals(LoadClass.HIGH, held.dlc().load());
      assertTrue(held.dlc().delayedL0Compactions() >= 1, held.toString());
      checkAll(cairn, model, seed);

      // Two quiet intervals are not enough (softness 3) ...
      assertEquals(LoadClass.HIGH, interval(db, 1));
      assertEquals(LoadClass.HIGH, interval(db, 1));
      assertEquals(0, cairn.stats().compaction().completed());
      // ... the third declares the load low, and the held compaction runs.
      assertEquals(LoadClass.LOW, interval(db, 1));
      Stats released = await(cairn, s -> s.levels().get(0).files() < 2, "L0 to drain");
      assertTrue(released.compaction().completed() >= 1, released.toString());
      assertEquals(LoadClass.LOW, released.dlc().load());
      checkAll(cairn, model, seed);
    }
  }

  @Test
  void sustainedHighLoadRunsBurstyPartThenFullCompactionsAndKeepsEveryValue() {
    long seed = new SplittableRandom().nextLong();
    SplittableRandom r = new SplittableRandom(seed);
    TreeMap<String, byte[]> model = new TreeMap<>();
    try (Cairn cairn = Cairn.open(dir, options(3, 6))) {
      DbImpl db = (DbImpl) cairn;
      highLoad(db);
      int maxL0 = 0;
      for (int t = 0; t < 16; t++) {
        writeTable(cairn, model, r, t);
        // Let any bursty compaction this flush started finish before the next flush.
        Stats s = await(cairn, st -> running(db) == 0, "compactions to finish");
        maxL0 = Math.max(maxL0, s.levels().get(0).files());
        checkAll(cairn, model, seed);
      }
      Stats s = cairn.stats();
      assertEquals(LoadClass.HIGH, s.dlc().load());
      assertTrue(s.dlc().partRuns() >= 2, s.toString());
      assertTrue(s.dlc().fullRuns() >= 1, s.toString());
      assertTrue(maxL0 <= 6, "L0 reached " + maxL0 + " files; seed " + seed);
      assertEquals(0, s.stalls().stops(), s.toString());
    }
    // The part outputs are plain L0 tables on disk: reopening reads them back.
    try (Cairn cairn = Cairn.open(dir, options(3, 6))) {
      checkAll(cairn, model, seed);
      assertEquals(model.size(), cairn.scan(new byte[0], null, Integer.MAX_VALUE).size());
    }
  }

  private static CompactionSettings dlc(DlcConfig config) {
    return CompactionSettings.leveled(CompactionSettings.Table.defaults(), config);
  }

  @Test
  void dlcBurstyThresholdsMustSitBelowTheStallTriggers() {
    Options.Builder b = Options.builder().l0SlowdownTrigger(8).l0StopTrigger(12);
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> b.compaction(dlc(DlcConfig.builder().fullTriggerL0Files(8).build())).build());
    assertEquals("option dlc.fullTriggerL0Files = 8 is out of range [2, 7]", e.getMessage());
    e = assertThrows(IllegalArgumentException.class,
        () -> b.compaction(dlc(DlcConfig.builder().partTriggerFreshFiles(7).fullTriggerL0Files(7).build())).build());
    assertEquals("option dlc.partTriggerFreshFiles = 7 is out of range [2, 6]", e.getMessage());
    // The defaults fit the default triggers.
    CompactionSettings defaults = dlc(DlcConfig.defaults());
    assertEquals(defaults, b.compaction(defaults).build().compaction());
    Options.builder().l0SlowdownTrigger(4).l0StopTrigger(6).build();
  }
}
