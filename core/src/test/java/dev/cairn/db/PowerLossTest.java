package dev.cairn.db;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cairn.Cairn;
import dev.cairn.CairnException;
import dev.cairn.CairnIterator;
import dev.cairn.Options;
import dev.cairn.WriteBatch;
import dev.cairn.WriteOptions;
import dev.cairn.fs.fake.FaultInjectingFileSystem;
import dev.cairn.testing.AppendOperator;
import dev.cairn.testing.EngineCombo;
import dev.cairn.testing.EngineCombo.CompactionScheduler;
import dev.cairn.testing.EngineCombo.CompactionStyle;
import dev.cairn.testkit.LongTests;
import dev.cairn.testkit.Seeds;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicReference;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Random synced and unsynced writes (puts, deletes, range deletes and merges), batches, flushes and compactions, cut by a simulated power
 * loss at a random moment (from another thread, so it lands anywhere in the foreground or
 * background work), which keeps each file's synced bytes and, in half of the cycles, a random
 * prefix of its unsynced ones. After each loss the database is reopened and must hold exactly the state
 * after some prefix of the attempted commits, no shorter than the last acknowledged synced
 * write, with every checksum intact and point reads agreeing with a scan. It runs under each
 * compaction style and scheduler ({@link EngineCombo}).
 *
 * <p>CI runs a few cycles; {@code -Dcairn.long=true} (or {@code -Dcairn.powerloss.cycles=N})
 * runs more (and every combination). Replay a failure with {@code -Dcairn.seed=<seed>
 * -Dcairn.combos=<STYLE/SCHEDULER>} (the background threads still make runs differ in detail).
 */
class PowerLossTest {
  private static final int KEYS = 300;

  /** The dead engine's warnings (every write after the cut fails) would drown the output. */
  private static final Logger ENGINE_LOG = Logger.getLogger("dev.cairn");
  private static Level savedLevel;

  @TempDir Path dir;

  @BeforeAll
  static void quietEngineWarnings() {
    savedLevel = ENGINE_LOG.getLevel();
    ENGINE_LOG.setLevel(Level.SEVERE);
  }

  @AfterAll
  static void restoreEngineWarnings() {
    ENGINE_LOG.setLevel(savedLevel);
  }

  /**
   * One operation of a commit: a put, a delete (null bytes), a merge of {@code bytes}, or a range
   * delete of [{@code key}, {@code bytes} as a key).
   */
  private record Op(String key, byte[] bytes, boolean merge, boolean range) {
    /** The keys of the test's key space it may change. */
    List<String> keys() {
      if (!range) {
        return List.of(key);
      }
      String to = new String(bytes, StandardCharsets.UTF_8);
      List<String> in = new ArrayList<>();
      for (int i = 0; i < KEYS; i++) {
        String k = String.format("k%05d", i);
        if (k.compareTo(key) >= 0 && k.compareTo(to) < 0) {
          in.add(k);
        }
      }
      return in;
    }
  }

  /** One attempted commit: its operations in order. */
  private record Commit(List<Op> ops) {
    List<String> keys() {
      return ops.stream().flatMap(op -> op.keys().stream()).toList();
    }
  }

  /**
   * CI rotation: every style and scheduler once; {@code -Dcairn.long=true} runs the
   * cross-product. A cycle's writes take a few milliseconds, less than DLC's 20 ms interval, so
   * under DLC most cuts land while the load model still reads low (no reads here): what DLC
   * changes for this test is its scheduler, throttle and monitor thread around the cut, the
   * close of a dead engine and the reopen.
   */
  static List<EngineCombo> combos() {
    return EngineCombo.select(
        EngineCombo.of(CompactionStyle.TABLE, CompactionScheduler.IMMEDIATE),
        EngineCombo.of(CompactionStyle.BLOCK, CompactionScheduler.DLC),
        EngineCombo.of(CompactionStyle.BUFFER, CompactionScheduler.IMMEDIATE),
        EngineCombo.twoPhase(),
        EngineCombo.dlsm());
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("combos")
  void everySyncedWriteSurvivesRandomPowerLosses(EngineCombo combo) throws Exception {
    long seed = Seeds.seed();
    int cycles = Integer.getInteger("cairn.powerloss.cycles", LongTests.enabled() ? 300 : 12);
    Random random = new Random(seed);
    FaultInjectingFileSystem fs = new FaultInjectingFileSystem();
    Options options = combo.apply(Options.builder().fileSystem(fs).memtableBytes(64 << 10).targetFileBytes(32 << 10)
        .baseLevelBytes(128 << 10).l0CompactionTrigger(2).blockCacheBytes(1 << 20)
        .mergeOperator(AppendOperator.INSTANCE)).build();
    ResourceHygiene.Baseline baseline = ResourceHygiene.before(dir);

    TreeMap<String, byte[]> durable = new TreeMap<>(); // the state as of the last synced ack
    long syncedAcks = 0;
    long filesChanged = 0;
    Cairn db = Cairn.open(dir, options);
    try {
      for (int cycle = 0; cycle < cycles; cycle++) {
        List<Commit> sinceDurable = new ArrayList<>();
        int ops = 100 + random.nextInt(700);
        int cut = random.nextInt(ops);
        // In half of the cycles an I/O error strikes first: the engine must stop there, and the
        // power loss then shows that what it had acknowledged was really durable.
        int faultAt = random.nextBoolean() ? random.nextInt(ops) : -1;
        // In half of the cycles writeback had put a prefix of each file's unsynced bytes on the
        // device: logs then end in records cut anywhere, which recovery must drop as torn tails.
        Random unsyncedKept = random.nextBoolean() ? new Random(random.nextLong()) : null;
        Thread power = null;
        long[] changed = new long[1];
        AtomicReference<Exception> powerFailure = new AtomicReference<>();
        for (int i = 0; i < ops; i++) {
          if (i == faultAt) {
            armRandomFault(fs, random);
          }
          if (i == cut) {
            int delayMicros = random.nextInt(3000);
            power = new Thread(() -> {
              try {
                Thread.sleep(delayMicros / 1000, (delayMicros % 1000) * 1000);
                changed[0] = fs.simulatePowerLoss(unsyncedKept);
              } catch (IOException | InterruptedException | RuntimeException e) {
                powerFailure.set(e);
              }
            }, "test-power-cut");
            power.start();
          }
          try {
            if (step(db, random, sinceDurable)) {
              // A synced write makes every earlier commit durable too (one log, written in order;
              // older logs are synced when the memtable switches).
              sinceDurable.forEach(c -> applyTo(durable, c));
              sinceDurable.clear();
              syncedAcks++;
            }
          } catch (CairnException e) {
            assertTrue(FaultInjectionTest.causedByInjectedFault(e) || e.getMessage().contains("power")
                    || rootMessage(e).contains("power lost"),
                "only the power cut may fail a write: " + e + " (seed " + seed + ", " + combo + ")");
            break;
          }
        }
        if (power == null) {
          changed[0] = fs.simulatePowerLoss(unsyncedKept);
        } else {
          power.join();
          if (powerFailure.get() != null) {
            throw new AssertionError("simulating the power loss failed (seed " + seed + ", " + combo + ")",
                powerFailure.get());
          }
        }
        filesChanged += changed[0];
        db.close(); // the filesystem is off: nothing the dead engine writes now reaches the files
        fs.heal();
        fs.powerOn();
        db = Cairn.open(dir, options);
        TreeMap<String, byte[]> recovered = checkRecoveredState(db, durable, sinceDurable, seed, cycle, combo);
        durable.clear();
        durable.putAll(recovered);
      }
    } finally {
      db.close();
    }
    ResourceHygiene.assertReleased(baseline, db);
    System.out.println("power loss " + combo + ": " + cycles + " cycles, faults injected " + fs.faultCounts()
        + ", unsynced data dropped in " + filesChanged + " files, " + syncedAcks
        + " synced acknowledgements, 0 lost, 0 corrupt reads (seed " + seed + ")");
  }

  /**
   * A regression test of the log's directory entry: the flush is held before it writes a table,
   * so no compaction runs and the style and scheduler do not apply; it runs once, with the
   * defaults.
   */
  @Test
  void aSyncedWriteInALogCreatedByAMemtableSwitchSurvivesPowerLoss() throws Exception {
    FaultInjectingFileSystem fs = new FaultInjectingFileSystem();
    Options options = Options.builder().fileSystem(fs).memtableBytes(64 << 10).build();
    ResourceHygiene.Baseline baseline = ResourceHygiene.before(dir);
    Cairn db = Cairn.open(dir, options);
    // Hold the flush before it writes its table: a table's directory sync would also make the
    // new log's directory entry durable and hide the bug.
    fs.holdCreates(name -> name.endsWith(".sst"));
    byte[] value = new byte[1024];
    for (int i = 0; i < 100; i++) { // about 64 fill the memtable: one switch to a new log
      db.put(String.format("k%05d", i).getBytes(StandardCharsets.UTF_8), value, WriteOptions.NO_SYNC);
    }
    assertTrue(((DbImpl) db).logNumber() > 2, "the memtable was switched to a new log");
    db.put("synced".getBytes(StandardCharsets.UTF_8), "yes".getBytes(StandardCharsets.UTF_8), WriteOptions.SYNC);
    fs.simulatePowerLoss();
    fs.releaseCreates();
    db.close();
    fs.powerOn();
    Cairn reopened = Cairn.open(dir, options);
    try {
      assertArrayEquals("yes".getBytes(StandardCharsets.UTF_8), reopened.get("synced".getBytes(StandardCharsets.UTF_8)),
          "a synced write in a log whose directory entry never reached the device was lost");
      for (int i = 0; i < 100; i++) {
        assertArrayEquals(value, reopened.get(String.format("k%05d", i).getBytes(StandardCharsets.UTF_8)), "k" + i);
      }
    } finally {
      reopened.close();
    }
    ResourceHygiene.assertReleased(baseline, reopened);
  }

  private static void armRandomFault(FaultInjectingFileSystem fs, Random random) {
    switch (random.nextInt(7)) {
      case 0 -> fs.failSyncs(FaultInjectionTest.LOG);
      case 1 -> fs.tearNextAppend(FaultInjectionTest.LOG);
      case 2 -> fs.limitSpace(random.nextInt(100_000));
      case 3 -> fs.failAppends(FaultInjectionTest.TABLE);
      case 4 -> fs.failNextSync(FaultInjectionTest.MANIFEST);
      case 5 -> fs.tearNextAppend(FaultInjectionTest.MANIFEST);
      default -> fs.failDirectorySyncs(true);
    }
  }

  /** Runs one random operation; returns whether it was a synced write that was acknowledged. */
  private static boolean step(Cairn db, Random random, List<Commit> sinceDurable) {
    int dice = random.nextInt(200);
    if (dice == 0) {
      db.flush();
      return false;
    }
    if (dice == 1) {
      db.compactRange(null, null);
      return false;
    }
    boolean sync = random.nextInt(15) == 0;
    WriteBatch batch = new WriteBatch();
    List<Op> ops = new ArrayList<>();
    int n = random.nextInt(10) == 0 ? 1 + random.nextInt(20) : 1;
    for (int i = 0; i < n; i++) {
      int keyIndex = random.nextInt(KEYS);
      String key = String.format("k%05d", keyIndex);
      int kind = random.nextInt(60);
      if (kind < 10) {
        batch.delete(key.getBytes(StandardCharsets.UTF_8));
        ops.add(new Op(key, null, false, false));
      } else if (kind < 20) {
        byte[] operand = ("+" + random.nextInt(1000)).getBytes(StandardCharsets.UTF_8);
        batch.merge(key.getBytes(StandardCharsets.UTF_8), operand);
        ops.add(new Op(key, operand, true, false));
      } else if (kind == 20) {
        byte[] to = String.format("k%05d", keyIndex + 1 + random.nextInt(30)).getBytes(StandardCharsets.UTF_8);
        batch.deleteRange(key.getBytes(StandardCharsets.UTF_8), to);
        ops.add(new Op(key, to, false, true));
      } else {
        byte[] value = value(key, random);
        batch.put(key.getBytes(StandardCharsets.UTF_8), value);
        ops.add(new Op(key, value, false, false));
      }
    }
    // Recorded before the attempt: a write cut by the power loss may or may not survive.
    sinceDurable.add(new Commit(ops));
    db.write(batch, sync ? WriteOptions.SYNC : WriteOptions.NO_SYNC);
    return sync;
  }

  private static byte[] value(String key, Random random) {
    byte[] head = (key + "#" + random.nextLong() + ":").getBytes(StandardCharsets.UTF_8);
    return Arrays.copyOf(head, head.length + random.nextInt(300));
  }

  private static void applyTo(TreeMap<String, byte[]> state, Commit c) {
    for (Op op : c.ops()) {
      if (op.range()) {
        state.subMap(op.key(), true, new String(op.bytes(), StandardCharsets.UTF_8), false).clear();
      } else if (op.merge()) {
        state.merge(op.key(), op.bytes(), AppendOperator::concat);
      } else if (op.bytes() == null) {
        state.remove(op.key());
      } else {
        state.put(op.key(), op.bytes());
      }
    }
  }

  /**
   * The recovered state must equal the durable state advanced by some prefix of the commits
   * attempted since; checked incrementally by tracking the keys that still differ.
   */
  private static TreeMap<String, byte[]> checkRecoveredState(Cairn db, TreeMap<String, byte[]> durable,
      List<Commit> sinceDurable, long seed, int cycle, EngineCombo combo) {
    String where = " (" + combo + ", cycle " + cycle + ", seed " + seed + "; replay with -Dcairn.seed=" + seed
        + " -Dcairn.combos=" + combo + ")";
    db.verifyChecksums();
    TreeMap<String, byte[]> recovered = new TreeMap<>();
    try (CairnIterator it = db.iterator()) {
      for (it.seekToFirst(); it.isValid(); it.next()) {
        recovered.put(new String(it.key(), StandardCharsets.UTF_8), it.value());
      }
    }
    for (int i = 0; i < KEYS; i++) {
      String key = String.format("k%05d", i);
      assertArrayEquals(recovered.get(key), db.get(key.getBytes(StandardCharsets.UTF_8)),
          "point read disagrees with the scan for " + key + where);
    }
    TreeMap<String, byte[]> model = new TreeMap<>(durable);
    Set<String> differing = new HashSet<>();
    Set<String> all = new HashSet<>(model.keySet());
    all.addAll(recovered.keySet());
    for (String k : all) {
      if (!Arrays.equals(model.get(k), recovered.get(k))) {
        differing.add(k);
      }
    }
    int prefix = 0;
    while (!differing.isEmpty() && prefix < sinceDurable.size()) {
      Commit c = sinceDurable.get(prefix++);
      applyTo(model, c);
      for (String k : c.keys()) {
        if (Arrays.equals(model.get(k), recovered.get(k))) {
          differing.remove(k);
        } else {
          differing.add(k);
        }
      }
    }
    if (!differing.isEmpty()) {
      String k = differing.iterator().next();
      throw new AssertionError("recovered state is no prefix of the attempted commits at or after the last synced"
          + " write: " + differing.size() + " keys differ, e.g. " + k + " = " + show(recovered.get(k))
          + ", durable " + show(durable.get(k)) + where);
    }
    return recovered;
  }

  private static String show(byte[] v) {
    return v == null ? "absent" : new String(v, 0, Math.min(v.length, 40), StandardCharsets.UTF_8);
  }

  private static String rootMessage(Throwable t) {
    Throwable c = t;
    while (c.getCause() != null && c.getCause() != c) {
      c = c.getCause();
    }
    return Objects.toString(c.getMessage(), "");
  }
}
