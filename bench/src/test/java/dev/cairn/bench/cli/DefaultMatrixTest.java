package dev.cairn.bench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

class DefaultMatrixTest {
  @Test
  void oneSeriesADeviceEachAValidCompareWithItsControl() {
    List<List<String>> commands = DefaultMatrix.commands(new String[] {"--out", "m"});
    assertEquals(2, commands.size());
    Invocation page = Flags.parse("compare", commands.get(0).toArray(String[]::new));
    Invocation slow = Flags.parse("compare", commands.get(1).toArray(String[]::new));
    assertEquals(Path.of("m/page"), page.out());
    assertEquals(Path.of("m/slow"), slow.out());
    for (Invocation inv : List.of(page, slow)) {
      assertEquals(3, inv.rounds());
      assertEquals(List.of(DefaultMatrix.WORKLOADS.split(",")), inv.workloads());
      assertEquals(List.of(DefaultMatrix.ENGINES.split(",")), inv.engines());
      assertTrue(inv.config().engineDefaults(), "each engine's own level shape");
      assertEquals(1_000_000, inv.config().records());
    }
    assertEquals(400, slow.config().deviceReadIops());
    assertEquals(0, page.config().deviceReadIops());
    assertEquals(60.0, page.config().seconds());
    assertEquals(120.0, slow.config().seconds());
  }

  @Test
  void aGivenFlagReplacesTheMatrixValueAndDevicesPickTheSeries() {
    List<List<String>> commands = DefaultMatrix.commands(
        new String[] {"--out=m", "--devices", "slow", "--workloads", "uniform,load", "--seconds=30", "--repeat", "4"});
    assertEquals(1, commands.size());
    Invocation slow = Flags.parse("compare", commands.get(0).toArray(String[]::new));
    assertEquals(List.of("uniform", "load"), slow.workloads());
    assertEquals(30.0, slow.config().seconds());
    assertEquals(4, slow.rounds());
    assertEquals(400, slow.config().deviceReadIops());
  }

  @Test
  void mistakesAreNamed() {
    assertTrue(assertThrows(UsageException.class, () -> DefaultMatrix.commands(new String[] {"--devices", "page"}))
        .getMessage().contains("--out"));
    assertTrue(assertThrows(UsageException.class,
        () -> DefaultMatrix.commands(new String[] {"--out", "m", "--devices", "ssd"})).getMessage().contains("'ssd'"));
    assertTrue(assertThrows(UsageException.class,
        () -> DefaultMatrix.commands(new String[] {"--out", "m", "--seconds", "1", "--seconds", "2"}))
        .getMessage().contains("twice"));
  }
}
