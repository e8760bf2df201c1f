package dev.cairn.bench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

class BlockDbExperimentTest {
  @Test
  void aSeriesAShapeEachASettledLoadOfThePapersRecordsWithItsControl() {
    List<DefaultMatrix.Cell> cells = BlockDbExperiment.cells(new String[] {"--out", "b"});
    assertEquals(2, cells.size());
    Invocation leveldb = Flags.parse("compare", cells.get(0).command().toArray(String[]::new));
    Invocation defaults = Flags.parse("compare", cells.get(1).command().toArray(String[]::new));
    assertEquals(Path.of("b", "leveldb"), leveldb.out());
    assertEquals(Path.of("b", "defaults"), defaults.out());
    for (Invocation inv : List.of(leveldb, defaults)) {
      assertEquals(List.of("load"), inv.workloads());
      assertEquals(List.of(BlockDbExperiment.ENGINES.split(",")), inv.engines());
      assertEquals(3, inv.rounds());
      assertEquals(20_000_000, inv.config().records());
      assertEquals(32, inv.config().keyBytes());
      assertEquals(1024, inv.config().valueBytes());
      assertTrue(inv.config().settle());
      assertEquals(60.0, inv.config().readSeconds());
      assertEquals(60.0, inv.config().scanSeconds());
      // A tenth of 20,000,000 records of 1,056 bytes.
      assertEquals(2014L << 20, inv.config().cacheBytes());
    }
    assertFalse(leveldb.config().engineDefaults());
    assertEquals(4L << 20, leveldb.config().memtableBytes());
    assertEquals(2L << 20, leveldb.config().targetFileBytes());
    assertEquals(10L << 20, leveldb.config().baseLevelBytes());
    assertTrue(defaults.config().engineDefaults());
    assertEquals(32L << 20, defaults.config().memtableBytes());
  }

  @Test
  void aGivenFlagReplacesTheExperimentsValueAndTheCacheFollowsTheRecords() {
    List<DefaultMatrix.Cell> cells = BlockDbExperiment.cells(
        new String[] {"--out", "b", "--shapes", "defaults", "--records", "1000000",
            "--engines", "cairn-table,cairn-table-same"});
    assertEquals(1, cells.size());
    Invocation inv = Flags.parse("compare", cells.get(0).command().toArray(String[]::new));
    assertEquals(1_000_000, inv.config().records());
    assertEquals(101L << 20, inv.config().cacheBytes());
    assertEquals(List.of("cairn-table", "cairn-table-same"), inv.engines());
  }

  @Test
  void mistakesAreNamed() {
    assertTrue(assertThrows(UsageException.class, () -> BlockDbExperiment.cells(new String[] {"--records", "5"}))
        .getMessage().contains("--out"));
    assertTrue(assertThrows(UsageException.class,
        () -> BlockDbExperiment.cells(new String[] {"--out", "b", "--shapes", "rocks"})).getMessage().contains("'rocks'"));
  }
}
