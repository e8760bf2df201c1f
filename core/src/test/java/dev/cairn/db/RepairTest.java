package dev.cairn.db;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cairn.Cairn;
import dev.cairn.CairnIterator;
import dev.cairn.MissingFilesException;
import dev.cairn.Options;
import dev.cairn.RepairReport;
import dev.cairn.compaction.buffer.BufferConfig;
import dev.cairn.fs.FileNames;
import dev.cairn.model.BufferEntry;
import dev.cairn.model.BufferRun;
import dev.cairn.testing.EngineCombo.CompactionStyle;
import dev.cairn.version.FileMetaData;
import dev.cairn.version.Version;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link Cairn#repair}: a database that fails to open because tables are missing opens again
 * after the repair, which reports each dropped table with its key range. Keys outside the dropped
 * ranges keep their newest values; keys inside read an older version they really had, or nothing,
 * never a value they never had. A dropped compaction-buffer file loses nothing at all.
 */
class RepairTest {
  private static final int KEYS = 1500;

  @TempDir Path dir;
  /** Every value each key ever had, oldest first. */
  private final Map<String, List<byte[]>> history = new HashMap<>();

  private static Options options(CompactionStyle style) {
    return Options.builder().memtableBytes(256 << 10).targetFileBytes(32 << 10).blockBytes(1024).blockCacheBytes(1 << 20)
        .compaction(style.leveled(BufferConfig.defaults().withTrimIntervalMillis(3_600_000).withTrimPassesPerBaseLevel(0)
            .withMaxSpaceFraction(1000).withFullBoundMissMicros(0).withKeepColdArrivals(true))) // the load reads nothing; repair needs buffer files
        .build();
  }

  /** Two rounds of every key: the first compacted to L1, the second flushed to L0 (as CorruptionTest). */
  private Set<Long> build(CompactionStyle style) {
    try (Cairn db = Cairn.open(dir, options(style))) {
      for (int round = 0; round < 2; round++) {
        for (int i = 0; i < KEYS; i++) {
          String key = String.format("k%05d", i);
          byte[] value = (key + "@round" + round).getBytes(StandardCharsets.UTF_8);
          db.put(key.getBytes(StandardCharsets.UTF_8), value);
          history.computeIfAbsent(key, k -> new ArrayList<>()).add(value);
        }
        if (round == 0) {
          db.compactRange(null, null);
        }
      }
      db.flush();
      return bufferOnlyFiles((DbImpl) db);
    }
  }

  private static Set<Long> bufferOnlyFiles(DbImpl db) {
    Set<Long> out = new HashSet<>();
    db.engine().mutex().lock();
    try {
      Version v = db.engine().versions().current();
      for (int level = 0; level < v.numLevels(); level++) {
        for (BufferRun<FileMetaData> run : v.bufferRuns(level)) {
          for (BufferEntry<FileMetaData> e : run.entries()) {
            if (e instanceof BufferEntry.File<FileMetaData> f) {
              out.add(f.meta().number());
            }
          }
        }
      }
      for (int level = 0; level < v.numLevels(); level++) {
        v.files(level).forEach(f -> out.remove(f.number()));
      }
    } finally {
      db.engine().mutex().unlock();
    }
    return out;
  }

  @Test
  void droppingALevelTableReportsItsRangeAndOpensWithOlderVersionsThere() throws IOException {
    build(CompactionStyle.TABLE);
    Path table = tables().get(0); // the oldest: in L1, holding the first round
    Files.delete(table);
    assertThrows(MissingFilesException.class, () -> Cairn.open(dir, options(CompactionStyle.TABLE)).close());
    RepairReport report = Cairn.repair(dir, options(CompactionStyle.TABLE));
    assertEquals(1, report.dropped().size(), report.toString());
    RepairReport.DroppedTable dropped = report.dropped().get(0);
    assertEquals(table.getFileName().toString(), dropped.file());
    assertTrue(report.lostData() && dropped.problem().equals("missing") && dropped.entries() > 0, report.toString());
    assertTrue(report.toString().contains(table.getFileName().toString()), report.toString());
    try (Cairn db = Cairn.open(dir, options(CompactionStyle.TABLE))) {
      int inRange = 0;
      for (var e : history.entrySet()) {
        byte[] key = e.getKey().getBytes(StandardCharsets.UTF_8);
        byte[] v = db.get(key);
        List<byte[]> versions = e.getValue();
        if (within(key, dropped)) {
          inRange++;
          assertTrue(v == null || versions.stream().anyMatch(old -> Arrays.equals(old, v)),
              e.getKey() + " reads a value it never had");
        } else {
          assertArrayEquals(versions.get(versions.size() - 1), v, e.getKey() + " outside the dropped range");
        }
      }
      assertTrue(inRange > 0, "the dropped table held keys");
      db.verifyChecksums();
    }
    assertTrue(Cairn.repair(dir, options(CompactionStyle.TABLE)).dropped().isEmpty(), "a second repair finds nothing");
  }

  @Test
  void droppingABufferedCopyLosesNothing() throws IOException {
    Set<Long> buffered = build(CompactionStyle.BUFFER);
    assertFalse(buffered.isEmpty(), "the set-up leaves a file in L1's compaction buffer");
    long number = buffered.iterator().next();
    Files.delete(dir.resolve(FileNames.table(number)));
    RepairReport report = Cairn.repair(dir, options(CompactionStyle.BUFFER));
    assertEquals(1, report.dropped().size(), report.toString());
    assertTrue(report.dropped().get(0).inBuffer() && !report.lostData(), report.toString());
    try (Cairn db = Cairn.open(dir, options(CompactionStyle.BUFFER))) {
      for (var e : history.entrySet()) {
        List<byte[]> versions = e.getValue();
        assertArrayEquals(versions.get(versions.size() - 1), db.get(e.getKey().getBytes(StandardCharsets.UTF_8)),
            e.getKey());
      }
      int scanned = 0;
      try (CairnIterator it = db.iterator()) {
        for (it.seekToFirst(); it.isValid(); it.next()) {
          List<byte[]> versions = history.get(new String(it.key(), StandardCharsets.UTF_8));
          assertArrayEquals(versions.get(versions.size() - 1), it.value());
          scanned++;
        }
      }
      assertEquals(KEYS, scanned);
    }
  }

  @Test
  void aHealthyDatabaseIsNotTouched() throws IOException {
    build(CompactionStyle.TABLE);
    List<String> before = names();
    assertEquals("nothing to repair: every table the manifest names is present\n",
        Cairn.repair(dir, options(CompactionStyle.TABLE)).toString());
    assertEquals(before, names());
  }

  private static boolean within(byte[] key, RepairReport.DroppedTable t) {
    return Arrays.compareUnsigned(key, t.smallestKey()) >= 0 && Arrays.compareUnsigned(key, t.largestKey()) <= 0;
  }

  private List<Path> tables() throws IOException {
    try (var s = Files.list(dir)) {
      return s.filter(p -> p.getFileName().toString().endsWith(".sst")).sorted().toList();
    }
  }

  private List<String> names() throws IOException {
    try (var s = Files.list(dir)) {
      return s.map(p -> p.getFileName().toString()).sorted().toList();
    }
  }
}
