package dev.cairn.db;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cairn.BackgroundErrorException;
import dev.cairn.Cairn;
import dev.cairn.CairnIterator;
import dev.cairn.CompactionFilter;
import dev.cairn.Options;
import dev.cairn.ReadOptions;
import dev.cairn.Snapshot;
import dev.cairn.Stats;
import dev.cairn.testing.EngineCombo;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A user's compaction filter through every style and layout: what compactions rewrite it removes
 * or changes, what a snapshot sees it leaves alone, reads through the compaction buffer agree
 * with the levels after it acted, and a filter that throws stops the database without losing
 * anything.
 */
class CompactionFilterTest {
  private static final int KEYS = 3000;

  static List<EngineCombo> combos() {
    return EngineCombo.all();
  }

  /** Removes "drop" keys, marks "chg" keys' values with a leading '!' (once), keeps the rest. */
  static final CompactionFilter FILTER = (context, key, value) -> {
    String k = new String(key, StandardCharsets.UTF_8);
    if (k.startsWith("drop")) {
      return CompactionFilter.Decision.REMOVE;
    }
    if (k.startsWith("chg") && (value.length == 0 || value[0] != '!')) {
      return CompactionFilter.Decision.change(changed(value));
    }
    return CompactionFilter.Decision.KEEP;
  };

  private static byte[] changed(byte[] value) {
    byte[] out = new byte[value.length + 1];
    out[0] = '!';
    System.arraycopy(value, 0, out, 1, value.length);
    return out;
  }

  private static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  private static String key(int i) {
    return (i % 3 == 0 ? "drop" : i % 3 == 1 ? "chg" : "keep") + String.format("%06d", i);
  }

  private static byte[] value(int i, int round) {
    return bytes("v" + i + "-" + round + "-" + "x".repeat(40));
  }

  private static Options options(EngineCombo combo, CompactionFilter filter) {
    return combo.apply(EngineCombo.tinyTree()).compactionFilter(filter).build();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("combos")
  void aFullCompactionAppliesTheFilterToEveryKeyAndReadsAgreeMeanwhile(EngineCombo combo, @TempDir Path dir) {
    try (DbImpl db = (DbImpl) Cairn.open(dir, options(combo, FILTER))) {
      for (int round = 0; round < 3; round++) {
        for (int i = 0; i < KEYS; i++) {
          db.put(bytes(key(i)), value(i, round));
        }
        // Compactions ran on their own meanwhile and filtered some keys: point reads, those
        // through the compaction buffer included, agree with an iterator at one snapshot.
        try (Snapshot s = db.snapshot()) {
          Map<String, byte[]> scanned = new HashMap<>();
          try (CairnIterator it = db.iterator(ReadOptions.at(s))) {
            for (it.seekToFirst(); it.isValid(); it.next()) {
              scanned.put(new String(it.key(), StandardCharsets.UTF_8), it.value());
            }
          }
          for (int i = 0; i < KEYS; i++) {
            byte[] got = db.get(bytes(key(i)), ReadOptions.at(s));
            byte[] want = scanned.get(key(i));
            if (want == null) {
              assertNull(got, combo + ": " + key(i) + " scanned absent, read present, round " + round);
            } else {
              assertArrayEquals(want, got, combo + ": " + key(i) + " read as the scan read it, round " + round);
            }
            assertAllowed(i, round, got, combo);
          }
        }
      }
      assertTrue(db.stats().compaction().completed() > 0, combo + ": compactions ran");
      db.compactRange(null, null);
      for (int i = 0; i < KEYS; i++) {
        assertAllowed(i, 2, db.get(bytes(key(i))), combo);
      }
      // The deepest level's own data is filtered when a compaction next rewrites it (compactRange
      // does not yet).
      Stats.Compaction counts = db.stats().compaction();
      // Not every key: the snapshots this test takes while compactions run discard some of them.
      assertTrue(counts.filterRemoved() > 0, combo + ": removed " + counts);
      assertTrue(counts.filterChanged() > 0, combo + ": changed " + counts);
      assertTrue(db.stats().toString().contains("compaction filter      " + counts.filterRemoved() + " removed"),
          db.stats().toString());
    }
  }

  /** Everything in the memtable, then compacted by hand: every key is rewritten, so every key is filtered. */
  @ParameterizedTest(name = "{0}")
  @MethodSource("combos")
  void aManualCompactionOfTheMemtableFiltersEveryKey(EngineCombo combo, @TempDir Path dir) {
    try (Cairn db = Cairn.open(dir, oneMemtable(combo, FILTER))) {
      for (int i = 0; i < KEYS; i++) {
        db.put(bytes(key(i)), value(i, 0));
      }
      db.compactRange(null, null);
      for (int i = 0; i < KEYS; i++) {
        assertFiltered(i, 0, db.get(bytes(key(i))), combo);
      }
    }
  }

  /** A memtable that holds the whole load, so that nothing is flushed or compacted before the test says. */
  private static Options oneMemtable(EngineCombo combo, CompactionFilter filter) {
    return combo.apply(EngineCombo.tinyTree()).memtableBytes(4 << 20).compactionFilter(filter).build();
  }

  /** After a compaction rewrote it, a value reads as the filter decided. */
  private static void assertFiltered(int i, int round, byte[] got, EngineCombo combo) {
    switch (i % 3) {
      case 0 -> assertNull(got, combo + ": " + key(i) + " removed by the filter");
      case 1 -> assertArrayEquals(changed(value(i, round)), got, combo + ": " + key(i) + " changed once");
      default -> assertArrayEquals(value(i, round), got, combo + ": " + key(i) + " kept");
    }
  }

  /** Before its compaction a value reads as written, after it as the filter decided: nothing else. */
  private static void assertAllowed(int i, int round, byte[] got, EngineCombo combo) {
    byte[] written = value(i, round);
    boolean allowed = switch (i % 3) {
      case 0 -> got == null || java.util.Arrays.equals(written, got);
      case 1 -> java.util.Arrays.equals(written, got) || java.util.Arrays.equals(changed(written), got);
      default -> java.util.Arrays.equals(written, got);
    };
    assertTrue(allowed, combo + ": " + key(i) + " read " + (got == null ? "absent" : new String(got,
        StandardCharsets.UTF_8)) + " in round " + round);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("combos")
  void aSnapshotKeepsSeeingWhatTheFilterRemovedAfterIt(EngineCombo combo, @TempDir Path dir) {
    try (Cairn db = Cairn.open(dir, oneMemtable(combo, FILTER))) {
      for (int i = 0; i < KEYS; i++) {
        db.put(bytes(key(i)), value(i, 0));
      }
      try (Snapshot s = db.snapshot()) {
        db.compactRange(null, null);
        for (int i = 0; i < KEYS; i++) {
          assertArrayEquals(value(i, 0), db.get(bytes(key(i)), ReadOptions.at(s)), combo + ": " + key(i) + " at the snapshot");
        }
        // No value of the snapshot's was offered: the filter acts on values newer than every snapshot.
        assertArrayEquals(value(0, 0), db.get(bytes(key(0))), combo + ": not offered while the snapshot sees it");
      }
      db.put(bytes(key(0)), value(0, 1));
      db.put(bytes(key(1)), value(1, 1));
      db.compactRange(null, null);
      assertNull(db.get(bytes(key(0))), combo + ": the snapshot released, a new value is removed");
      assertArrayEquals(changed(value(1, 1)), db.get(bytes(key(1))), combo.toString());
    }
  }

  /**
   * A snapshot taken while a compaction runs (here by the filter itself, on its first call) sees
   * the values the compaction read: the compaction is discarded, and the next run leaves alone what
   * the snapshot sees.
   */
  @ParameterizedTest(name = "{0}")
  @MethodSource("combos")
  void aCompactionThatChangedWhatASnapshotTakenMeanwhileSeesIsDiscarded(EngineCombo combo, @TempDir Path dir) {
    java.util.concurrent.atomic.AtomicReference<Cairn> opened = new java.util.concurrent.atomic.AtomicReference<>();
    java.util.concurrent.atomic.AtomicReference<Snapshot> taken = new java.util.concurrent.atomic.AtomicReference<>();
    CompactionFilter snapshotting = (context, key, value) -> {
      if (taken.get() == null) {
        synchronized (taken) {
          if (taken.get() == null) {
            taken.set(opened.get().snapshot());
          }
        }
      }
      return FILTER.filter(context, key, value);
    };
    try (Cairn db = Cairn.open(dir, oneMemtable(combo, snapshotting))) {
      opened.set(db);
      for (int i = 0; i < KEYS; i++) {
        db.put(bytes(key(i)), value(i, 0));
      }
      db.compactRange(null, null);
      Snapshot s = taken.get();
      assertTrue(s != null, combo + ": the filter ran");
      assertTrue(db.stats().compaction().filterDiscarded() >= 1, combo + ": " + db.stats().compaction());
      for (int i = 0; i < KEYS; i++) {
        assertArrayEquals(value(i, 0), db.get(bytes(key(i)), ReadOptions.at(s)), combo + ": " + key(i) + " at the snapshot");
      }
      s.close();
    }
  }

  @Test
  void aFilterThatThrowsStopsWritesAndLosesNothing(@TempDir Path dir) {
    AtomicBoolean fail = new AtomicBoolean(true);
    CompactionFilter failing = (context, key, value) -> {
      if (fail.get()) {
        throw new IllegalStateException("filter bug");
      }
      return CompactionFilter.Decision.KEEP;
    };
    Options options = EngineCombo.of(EngineCombo.CompactionStyle.TABLE, EngineCombo.CompactionScheduler.IMMEDIATE)
        .apply(EngineCombo.tinyTree()).compactionFilter(failing).build();
    int[] acknowledged = {0};
    try (Cairn db = Cairn.open(dir, options)) {
      // The failure surfaces wherever a compaction first meets the filter: in a put or the flush
      // when one the puts started (the tiny tree's memtables switch often) got there first, else
      // in the full compaction.
      RuntimeException e = assertThrows(RuntimeException.class, () -> {
        for (int i = 0; i < 500; i++) {
          db.put(bytes(key(i)), value(i, 0));
          acknowledged[0]++;
        }
        db.flush();
        db.compactRange(null, null);
      });
      assertTrue(String.valueOf(e.getMessage()).contains("filter bug")
          || String.valueOf(e.getCause()).contains("filter bug"), String.valueOf(e));
      assertThrows(BackgroundErrorException.class, () -> db.put(bytes("after"), bytes("x")));
    }
    assertTrue(acknowledged[0] > 0, "some puts were acknowledged before the failure");
    fail.set(false);
    try (Cairn db = Cairn.open(dir, options)) {
      for (int i = 0; i < acknowledged[0]; i++) {
        assertArrayEquals(value(i, 0), db.get(bytes(key(i))), key(i) + " after the reopen");
      }
    }
  }

  @Test
  void aChangedValueMustBeAValue() {
    assertThrows(NullPointerException.class, () -> CompactionFilter.Decision.change(null));
    assertThrows(IllegalArgumentException.class,
        () -> CompactionFilter.Decision.change(new byte[Options.MAX_VALUE_BYTES + 1]));
    byte[] v = {1, 2};
    CompactionFilter.Decision d = CompactionFilter.Decision.change(v);
    v[0] = 9;
    assertArrayEquals(new byte[] {1, 2}, d.newValue(), "the decision holds a copy");
    assertEquals("KEEP", CompactionFilter.Decision.KEEP.toString());
  }
}
