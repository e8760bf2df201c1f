package dev.cairn.bench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DefaultMatrixTest {
  @Test
  void oneSeriesACellEachAValidCompareWithItsControl() {
    List<DefaultMatrix.Cell> cells = DefaultMatrix.cells(new String[] {"--out", "m"});
    List<String> workloads = List.of(DefaultMatrix.WORKLOADS.split(","));
    assertEquals(2 * workloads.size(), cells.size());
    for (int i = 0; i < cells.size(); i++) {
      DefaultMatrix.Cell cell = cells.get(i);
      boolean slow = i >= workloads.size();
      String workload = workloads.get(i % workloads.size());
      Invocation inv = Flags.parse("compare", cell.command().toArray(String[]::new));
      assertEquals(Path.of("m", slow ? "slow" : "page", workload), inv.out());
      assertEquals(inv.out(), cell.out());
      assertEquals(List.of(workload), inv.workloads());
      assertEquals(3, inv.rounds());
      assertEquals(List.of(DefaultMatrix.ENGINES.split(",")), inv.engines());
      assertTrue(inv.config().engineDefaults(), "each engine's own level shape");
      assertEquals(1_000_000, inv.config().records());
      assertEquals(slow ? 400 : 0, inv.config().deviceReadIops());
      assertEquals(slow ? 120.0 : 60.0, inv.config().seconds());
    }
  }

  @Test
  void aGivenFlagReplacesTheMatrixValueAndDevicesAndWorkloadsPickTheCells() {
    List<DefaultMatrix.Cell> cells = DefaultMatrix.cells(
        new String[] {"--out=m", "--devices", "slow", "--workloads", "uniform,load", "--seconds=30", "--repeat", "4"});
    assertEquals(2, cells.size());
    Invocation uniform = Flags.parse("compare", cells.get(0).command().toArray(String[]::new));
    Invocation load = Flags.parse("compare", cells.get(1).command().toArray(String[]::new));
    assertEquals(List.of("uniform"), uniform.workloads());
    assertEquals(List.of("load"), load.workloads());
    assertEquals(30.0, uniform.config().seconds());
    assertEquals(4, uniform.rounds());
    assertEquals(400, uniform.config().deviceReadIops());
  }

  @Test
  void aCellIsDoneOnceItsFolderHoldsItsSeries(@TempDir Path dir) throws IOException {
    DefaultMatrix.Cell cell = DefaultMatrix.cells(new String[] {"--out", dir.toString(), "--devices", "page",
        "--workloads", "scan"}).get(0);
    assertFalse(cell.done());
    Files.createDirectories(cell.out().resolve("round-1")); // a series interrupted: not done
    assertFalse(cell.done());
    Files.writeString(cell.out().resolve("series.json"), "{}");
    assertTrue(cell.done());
  }

  @Test
  void mistakesAreNamed() {
    assertTrue(assertThrows(UsageException.class, () -> DefaultMatrix.cells(new String[] {"--devices", "page"}))
        .getMessage().contains("--out"));
    assertTrue(assertThrows(UsageException.class,
        () -> DefaultMatrix.cells(new String[] {"--out", "m", "--devices", "ssd"})).getMessage().contains("'ssd'"));
    assertTrue(assertThrows(UsageException.class,
        () -> DefaultMatrix.cells(new String[] {"--out", "m", "--seconds", "1", "--seconds", "2"}))
        .getMessage().contains("twice"));
  }
}
