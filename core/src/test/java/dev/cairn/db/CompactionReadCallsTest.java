package dev.cairn.db;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cairn.Cairn;
import dev.cairn.Options;
import dev.cairn.Stats;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link Stats.LevelStats#readCalls()}: a merge's read calls are counted at its output level, and
 * a merge over tables written in one piece reads them in read-ahead spans, far fewer calls than
 * the blocks it reads.
 */
class CompactionReadCallsTest {
  private static final int BLOCK_BYTES = 512;

  @TempDir Path dir;

  private static byte[] b(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  @Test
  void aMergeCountsItsReadCallsAtItsOutputLevelOnePerSpan() {
    // Flushes leave the cache alone, so that the merge reads its inputs from the files.
    Options options = Options.builder().memtableBytes(1 << 20).blockBytes(BLOCK_BYTES)
        .flushCaching(Options.FlushCaching.NEVER).build();
    try (Cairn db = Cairn.open(dir, options)) {
      for (int round = 0; round < 2; round++) {
        for (int i = 0; i < 5_000; i++) {
          db.put(b(String.format("k%06d", i)), b("value-" + round + "-" + i));
        }
        db.flush();
      }
      Stats before = db.stats();
      for (Stats.LevelStats l : before.levels()) {
        assertEquals(0, l.readCalls(), "no merge has run yet: " + before);
      }
      db.compactRange(null, null);

      Stats after = db.stats();
      long calls = 0;
      for (Stats.LevelStats l : after.levels()) {
        if (l.bytesRead() == 0) {
          assertEquals(0, l.readCalls(), "L" + l.level() + " read no bytes, so made no calls: " + after);
          continue;
        }
        calls += l.readCalls();
        long blocks = l.bytesRead() / BLOCK_BYTES;
        assertTrue(l.readCalls() > 0, "L" + l.level() + " read " + l.bytesRead() + " bytes in no call");
        assertTrue(l.readCalls() * 10 < blocks,
            "L" + l.level() + ": " + l.readCalls() + " calls for about " + blocks + " blocks; spans expected");
      }
      assertTrue(calls > 0, "the merge of two overlapping tables read them: " + after);
      assertTrue(after.toString().contains("compaction read calls  L"), after.toString());
    }
  }
}
