package dev.cairn.db;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cairn.Cairn;
import dev.cairn.Options;
import dev.cairn.Stats;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link Stats.Reads#byLevel()}: a read is counted at the level that answered it, and the
 * data blocks it read from the device at the level that held them; a cached block is not read
 * again, and a read the memtable answers reaches no level.
 */
class PointReadsStatsTest {
  @TempDir Path dir;

  private static byte[] b(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  @Test
  void readsAreCountedAtTheLevelThatAnsweredAndBlockReadsWhereTheyMissed() {
    Options options = Options.builder().memtableBytes(64 << 10).blockBytes(512).blockCacheBytes(4 << 20).build();
    try (Cairn db = Cairn.open(dir, options)) {
      for (int i = 0; i < 2_000; i++) {
        db.put(b(String.format("k%05d", i)), b("value-" + i));
      }
      db.flush();
      db.compactRange(null, null);
      int level = dataLevel(db.stats());
      assertTrue(level > 0, "compactRange left the data below L0");

      assertArrayEquals(b("value-7"), db.get(b("k00007")));
      assertArrayEquals(b("value-7"), db.get(b("k00007")));
      assertNull(db.get(b("k00007x"))); // in a file's range, ruled out by its filter or its block
      db.put(b("fresh"), b("in the memtable"));
      assertArrayEquals(b("in the memtable"), db.get(b("fresh")));

      List<Stats.LevelReads> byLevel = db.stats().reads().byLevel();
      for (int l = 0; l < byLevel.size(); l++) {
        Stats.LevelReads r = byLevel.get(l);
        if (l == level) {
          assertEquals(2, r.answered(), "two reads found k00007 at L" + l);
          // The first get read the block from the file; the second found it cached; the absent
          // key's block, if its filter passed, is the same cached block.
          assertEquals(1, r.blockReads(), "L" + l + ": " + r);
          assertEquals(0, r.bufferBlockReads(), "no compaction buffer under table compaction");
        } else {
          assertEquals(new Stats.LevelReads(0, 0, 0), r, "L" + l + " holds no data");
        }
      }
      assertTrue(db.stats().toString().contains(String.format("point reads L%-4d      2 answered, 1 blocks read (0 from the buffer)", level)),
          db.stats().toString());
    }
  }

  private static int dataLevel(Stats s) {
    int found = -1;
    for (Stats.LevelStats l : s.levels()) {
      if (l.files() > 0) {
        assertEquals(-1, found, "one level holds the data after compactRange: " + s);
        found = l.level();
      }
    }
    return found;
  }
}
