package dev.cairn.cache;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.nio.ByteBuffer;
import org.junit.jupiter.api.Test;

/** One database's share of a shared cache leaves nothing of itself behind once closed. */
class ScopedBlockCacheTest {
  @Test
  void aClosedShareLeavesNoRecordOfTheFilesItOnlyLookedUp() {
    try (OffHeapBlockCache shared = new OffHeapBlockCache(1 << 20)) {
      for (long scope = 0; scope < 3; scope++) {
        ScopedBlockCache db = new ScopedBlockCache(shared, scope);
        assertNull(db.lookup(7, 0));
        db.close();
        assertEquals(0, shared.fileStats(scope << 40 | 7).misses(), "scope " + scope);
      }
    }
  }

  @Test
  void aBlockInsertedAfterTheShareClosedIsNotKept() {
    try (OffHeapBlockCache shared = new OffHeapBlockCache(1 << 20)) {
      long scope = 4;
      ScopedBlockCache db = new ScopedBlockCache(shared, scope);
      db.close();
      db.insertWritten(5, 0, ByteBuffer.allocate(64));
      assertEquals(0, shared.cachedBlockCount(scope << 40 | 5));
      try (CachedBlock lease = db.insert(5, 64, ByteBuffer.allocate(64))) {
        assertNotNull(lease, "the caller still gets its block");
        assertEquals(64, lease.size());
      }
      assertEquals(0, shared.cachedBlockCount(scope << 40 | 5));
      assertNull(db.lookup(5, 64));
    }
  }
}
