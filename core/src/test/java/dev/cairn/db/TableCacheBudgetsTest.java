package dev.cairn.db;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;

import dev.cairn.Options;
import dev.cairn.db.base.Engine;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Which budget a database's open tables count into (docs/decisions/0028): databases that leave
 * both bounds to the engine share the process's, so that its derived bounds hold for the process;
 * a database that sets either bound keeps its own.
 */
class TableCacheBudgetsTest {
  @TempDir Path dir;

  private Engine engine(String name, Options.Builder options) {
    return new Engine(dir.resolve(name), options.blockCacheBytes(0).build());
  }

  @Test
  void databasesThatLeaveTheBoundsUnsetShareTheProcessBudgetAndOthersKeepTheirOwn() {
    Engine first = engine("first", Options.builder());
    Engine second = engine("second", Options.builder());
    Engine ownCount = engine("own-count", Options.builder().tableCacheFiles(64));
    Engine ownBytes = engine("own-bytes", Options.builder().tableCacheBytes(8L << 20));
    try {
      assertSame(first.tableCache().budget(), second.tableCache().budget());
      assertEquals(Options.defaults().tableCacheFiles(), first.tableCache().budget().maxFiles());
      assertEquals(Options.defaults().tableCacheBytes(), first.tableCache().budget().maxBytes());
      assertNotSame(first.tableCache().budget(), ownCount.tableCache().budget());
      assertNotSame(first.tableCache().budget(), ownBytes.tableCache().budget());
      assertEquals(64, ownCount.tableCache().budget().maxFiles());
      assertEquals(Options.defaults().tableCacheBytes(), ownCount.tableCache().budget().maxBytes(),
          "the bound left unset is still derived");
      assertEquals(8L << 20, ownBytes.tableCache().budget().maxBytes());
    } finally {
      for (Engine e : List.of(first, second, ownCount, ownBytes)) {
        e.tableCache().close();
      }
    }
  }
}
