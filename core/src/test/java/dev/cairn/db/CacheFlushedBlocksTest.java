package dev.cairn.db;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cairn.Cairn;
import dev.cairn.Options;
import dev.cairn.cache.CacheStats;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@link Options#cacheFlushedBlocks()}: a flush puts every data block it writes into the block
 * cache, so the first reads of just-flushed data hit it; without the option they miss.
 */
class CacheFlushedBlocksTest {
  @TempDir Path dir;

  @ParameterizedTest
  @ValueSource(booleans = {true, false})
  void readsOfJustFlushedDataHitTheCacheOnlyWhenFlushesFillIt(boolean cacheFlushed) {
    Options options = Options.builder().memtableBytes(1 << 20).blockBytes(1024).blockCacheBytes(8 << 20)
        .cacheFlushedBlocks(cacheFlushed).build();
    int keys = 2000;
    try (Cairn db = Cairn.open(dir, options)) {
      for (int i = 0; i < keys; i++) {
        db.put(key(i), value(i));
      }
      db.flush();
      CacheStats before = db.stats().cache();
      for (int i = 0; i < keys; i++) {
        assertArrayEquals(value(i), db.get(key(i)));
      }
      CacheStats after = db.stats().cache();
      long misses = after.misses() - before.misses();
      if (cacheFlushed) {
        assertTrue(before.inserts() > 0, "the flush inserted its blocks");
        assertEquals(0, misses, "every block of the flushed table was cached by the flush");
      } else {
        assertTrue(misses > 0, "without the option the first reads load the blocks");
      }
    }
  }

  private static byte[] key(int i) {
    return String.format("k%06d", i).getBytes(StandardCharsets.US_ASCII);
  }

  private static byte[] value(int i) {
    return ("v" + i + "-" + "y".repeat(100)).getBytes(StandardCharsets.US_ASCII);
  }
}
