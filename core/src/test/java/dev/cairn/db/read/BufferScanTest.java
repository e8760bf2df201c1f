package dev.cairn.db.read;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cairn.Cairn;
import dev.cairn.CairnIterator;
import dev.cairn.Options;
import dev.cairn.ReadOptions;
import dev.cairn.Snapshot;
import dev.cairn.compaction.buffer.BufferConfig;
import dev.cairn.config.CompactionSettings;
import dev.cairn.testing.EngineCombo;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.SplittableRandom;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Range queries through the compaction buffer ({@code BufferConfig.scansThroughBuffer},
 * docs/compaction.md "Range queries through the buffer"): iterators read level files from the
 * buffer files merges made them of, and every scan, whole, bounded, from a seek or at a snapshot,
 * returns what the tree holds (the model). Overwrites, deletes and snapshots make merges drop
 * versions and tombstones that the sources still hold, which is what the clipping and the merge
 * by sequence must get right. The model test runs the same under random operations.
 */
class BufferScanTest {
  @TempDir Path dir;

  private static Options options(boolean scansThroughBuffer) {
    return EngineCombo.tinyTree()
        // Every merge appends (no reads warm the loaded data) and nothing leaves for space or
        // by the trim, so the sources stay: the fallbacks are the model test's to cover.
        .compaction(CompactionSettings.leveled(new CompactionSettings.Buffer(
            BufferConfig.defaults().withTrimIntervalMillis(3_600_000).withTrimPassesPerBaseLevel(0)
                .withMaxSpaceFraction(1000).withFullBoundMissMicros(0).withKeepColdArrivals(true)
                .withScansThroughBuffer(scansThroughBuffer))))
        .build();
  }

  @Test
  void scansReadLevelFilesFromTheirSourcesAndReturnWhatTheTreeHolds() {
    Result through = run(true);
    assertTrue(through.scannedFromBuffer > 0, "some level file must be scanned from its sources");
    Result tree = run(false);
    assertEquals(0, tree.scannedFromBuffer, "off, iterators read the levels only");
    assertEquals(tree.scans, through.scans, "the same scans through the buffer and through the tree");
  }

  private record Result(List<String> scans, long scannedFromBuffer) {}

  /** The same writes and scans, each scan checked against the model; returns what they read. */
  private Result run(boolean scansThroughBuffer) {
    Path path = dir.resolve(scansThroughBuffer ? "through" : "tree");
    SplittableRandom r = new SplittableRandom(42);
    TreeMap<String, byte[]> model = new TreeMap<>();
    List<String> scans = new ArrayList<>();
    try (Cairn db = Cairn.open(path, options(scansThroughBuffer))) {
      Snapshot snapshot = null;
      TreeMap<String, byte[]> atSnapshot = null;
      for (int round = 0; round < 12; round++) {
        for (int i = 0; i < 1500; i++) {
          String k = String.format("k%05d", r.nextInt(4000));
          if (r.nextInt(5) == 0) {
            db.delete(b(k));
            model.remove(k);
          } else {
            byte[] v = b(k + "@" + round + "-" + i + "-".repeat(r.nextInt(60)));
            db.put(b(k), v);
            model.put(k, v);
          }
        }
        db.flush();
        if (round == 5) {
          snapshot = db.snapshot();
          atSnapshot = new TreeMap<>(model);
        }
        if (round % 3 == 2) {
          db.compactRange(null, null);
        }
        scans.add(scan(db, ReadOptions.DEFAULT, model, null, null, "round " + round));
        for (int s = 0; s < 20; s++) {
          String lo = String.format("k%05d", r.nextInt(4000));
          String hi = String.format("k%05d", r.nextInt(4000));
          if (lo.compareTo(hi) > 0) {
            String t = lo;
            lo = hi;
            hi = t;
          }
          scans.add(scan(db, ReadOptions.DEFAULT.withBounds(b(lo), b(hi)), model, lo, hi, "round " + round));
          scans.add(seekAndRead(db, model, lo, 1 + r.nextInt(100), "round " + round));
        }
        if (snapshot != null) {
          scans.add(scan(db, ReadOptions.at(snapshot), atSnapshot, null, null, "snapshot, round " + round));
        }
      }
      snapshot.close();
      return new Result(scans, db.stats().buffer().scannedFromBuffer());
    }
  }

  /** Iterates [{@code lo}, {@code hi}) (null: open), checks it against {@code model}, returns a digest. */
  private static String scan(Cairn db, ReadOptions options, NavigableMap<String, byte[]> model, String lo, String hi,
      String when) {
    NavigableMap<String, byte[]> expected = lo == null ? model : model.subMap(lo, true, hi, false);
    StringBuilder digest = new StringBuilder();
    try (CairnIterator it = db.iterator(options)) {
      it.seekToFirst();
      for (Map.Entry<String, byte[]> e : expected.entrySet()) {
        assertTrue(it.isValid(), "scan ends before " + e.getKey() + ", " + when);
        assertEquals(e.getKey(), s(it.key()), when);
        assertArrayEquals(e.getValue(), it.value(), "value of " + e.getKey() + ", " + when);
        digest.append(e.getKey()).append(';');
        it.next();
      }
      assertFalse(it.isValid(), "scan goes past the model, " + when);
    }
    return digest.toString();
  }

  /** Seeks to {@code from} and reads {@code count} entries, checked against {@code model}. */
  private static String seekAndRead(Cairn db, NavigableMap<String, byte[]> model, String from, int count, String when) {
    StringBuilder digest = new StringBuilder();
    try (CairnIterator it = db.iterator(ReadOptions.DEFAULT)) {
      it.seek(b(from));
      int n = 0;
      for (Map.Entry<String, byte[]> e : model.tailMap(from, true).entrySet()) {
        if (n++ == count) {
          break;
        }
        assertTrue(it.isValid(), "seek(" + from + ") ends before " + e.getKey() + ", " + when);
        assertEquals(e.getKey(), s(it.key()), "seek(" + from + "), " + when);
        assertArrayEquals(e.getValue(), it.value(), "value of " + e.getKey() + ", " + when);
        digest.append(e.getKey()).append(';');
        it.next();
      }
    }
    return digest.toString();
  }

  private static byte[] b(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  private static String s(byte[] b) {
    return new String(b, StandardCharsets.UTF_8);
  }
}
