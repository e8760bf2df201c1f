package dev.cairn.bench.run;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.cairn.bench.cli.Flags;
import dev.cairn.bench.engine.EngineSettings;
import dev.cairn.bench.workload.Workloads;
import java.io.PrintStream;
import java.io.OutputStream;
import org.junit.jupiter.api.Test;

/** What each workload's engine is opened with. */
class RunnerSettingsTest {
  private final Runner runner = new Runner(
      Flags.parse("compare", new String[] {"--out", "x", "--records", "1000", "--node-page-cache-mb", "32"}).config(),
      new PrintStream(OutputStream.nullOutputStream()));

  @Test
  void onlyPeriodicCarriesTheOfferedRates() {
    EngineSettings periodic = runner.settingsFor(Workloads.get("periodic"));
    assertEquals(3000, periodic.offeredHighOps());
    assertEquals(300, periodic.offeredLowOps());
    EngineSettings rangehot = runner.settingsFor(Workloads.get("rangehot"));
    assertEquals(0, rangehot.offeredHighOps());
    assertEquals(0, rangehot.offeredLowOps());
    assertEquals(periodic.withoutOfferedRates(), rangehot);
  }

  @Test
  void theDataSetAndTheNodesPageCacheReachTheEngine() {
    EngineSettings s = runner.settingsFor(Workloads.get("rangehot"));
    assertEquals(1000, s.records());
    assertEquals(1024, s.valueBytes());
    assertEquals(32L << 20, s.nodePageCacheBytes());
  }
}
