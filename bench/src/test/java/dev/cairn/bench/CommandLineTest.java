package dev.cairn.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cairn.bench.cli.Flags;
import dev.cairn.bench.cli.Invocation;
import dev.cairn.bench.cli.UsageException;
import dev.cairn.bench.engine.Engines;
import dev.cairn.bench.workload.Workloads;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CommandLineTest {
  @Test
  void unknownEngineExitsWithTwoAndListsTheEngines(@TempDir Path out) throws Exception {
    StringBuilder err = new StringBuilder();
    int code = OutputChecks.execute(err, "run", "--engine", "berkeleydb", "--workload", "rangehot", "--out",
        out.toString());
    assertEquals(BenchMain.EXIT_USAGE, code);
    assertTrue(err.toString().contains("unknown engine 'berkeleydb'"), err.toString());
    for (String engine : Engines.names()) {
      assertTrue(err.toString().contains(engine), "error does not list " + engine + ": " + err);
    }
    assertFalse(Files.exists(out.resolve("summary.json")), "a rejected command line wrote output");
  }

  @Test
  void unknownWorkloadExitsWithTwoAndListsTheWorkloads(@TempDir Path out) throws Exception {
    StringBuilder err = new StringBuilder();
    int code = OutputChecks.execute(err, "compare", "--engines", "rocksdb", "--workloads", "rangehot,ycsb-z",
        "--out", out.toString());
    assertEquals(BenchMain.EXIT_USAGE, code);
    assertTrue(err.toString().contains("unknown workload 'ycsb-z'"), err.toString());
    for (String workload : Workloads.names()) {
      assertTrue(err.toString().contains(workload), "error does not list " + workload + ": " + err);
    }
  }

  @Test
  void unknownFlagExitsWithTwoAndListsTheFlags(@TempDir Path out) throws Exception {
    StringBuilder err = new StringBuilder();
    int code = OutputChecks.execute(err, "run", "--engine", "rocksdb", "--workload", "rangehot", "--out",
        out.toString(), "--turbo", "9");
    assertEquals(BenchMain.EXIT_USAGE, code);
    assertTrue(err.toString().contains("unknown flag '--turbo'"), err.toString());
    assertTrue(err.toString().contains("--records") && err.toString().contains("--direct-io"), err.toString());
  }

  @Test
  void unknownCommandAndBadValuesAreUsageErrors() throws Exception {
    assertEquals(BenchMain.EXIT_USAGE, OutputChecks.execute(new StringBuilder(), "benchmark"));
    UsageException e = assertThrows(UsageException.class,
        () -> Flags.parse("run", new String[] {"--engine", "rocksdb", "--workload", "load", "--out", "x",
            "--records", "many"}));
    assertTrue(e.getMessage().contains("--records"), e.getMessage());
    assertThrows(UsageException.class, () -> Flags.parse("run", new String[] {"--workload", "load", "--out", "x"}));
    assertThrows(UsageException.class, () -> Flags.parse("run", new String[] {"--engines", "rocksdb"}));
    assertThrows(UsageException.class,
        () -> Flags.parse("compare", new String[] {"--out", "x", "--seed", "1", "--seed", "2"}));
  }

  @Test
  void defaultsAreLsbmAtOneHundredth() {
    Invocation inv = Flags.parse("compare", new String[] {"--out", "x"});
    assertEquals(List.of("cairn-buffer", "cairn-table", "rocksdb", "leveldb"), inv.engines());
    assertEquals(List.of("rangehot", "readonly-rangehot"), inv.workloads());
    RunConfig c = inv.config();
    assertEquals(204_800, c.records());
    assertEquals(1 << 20, c.memtableBytes());
    assertEquals(10 << 20, c.baseLevelBytes());
    assertEquals(1000, c.writeRate());
    assertEquals(0.15, c.hotFraction());
    assertEquals(0.98, c.hotProbability());
    // 30% of (16 + 1024) * 204800 bytes, i.e. about 60 MiB.
    assertEquals(63_897_600, c.cacheBytes());
    assertEquals(Path.of("x", "data"), c.dataDir());
  }

  @Test
  void engineDefaultsLeaveTheLevelShapeToEachEngine() {
    RunConfig plain = Flags.parse("compare", new String[] {"--out", "x"}).config();
    assertFalse(plain.engineDefaults());
    assertFalse(plain.engineSettings().engineDefaults());
    RunConfig own = Flags.parse("compare", new String[] {"--out", "x", "--engine-defaults", "--memtable-mb", "32"}).config();
    assertTrue(own.engineDefaults());
    assertTrue(own.engineSettings().engineDefaults(), "the engines are told");
    assertEquals(true, own.asMap().get("engine_defaults"), "summary.json and the report say which mode ran");
    assertEquals(32 << 20, own.memtableBytes(), "the budgets are still shared");
    for (String shape : List.of("--l1-mb", "--level-ratio", "--file-mb")) {
      UsageException e = assertThrows(UsageException.class,
          () -> Flags.parse("compare", new String[] {"--out", "x", "--engine-defaults", shape, "4"}));
      assertTrue(e.getMessage().contains(shape) && e.getMessage().contains("--engine-defaults"), e.getMessage());
    }
  }

  @Test
  void backgroundThreadsReachTheEnginesOrAreReportedUnhonoured() {
    RunConfig plain = Flags.parse("compare", new String[] {"--out", "x"}).config();
    assertEquals(0, plain.engineSettings().backgroundThreads(), "0: each engine keeps its own");
    assertTrue(plain.engineSettings().backgroundThreadsUnhonoured("leveldb").isEmpty());
    RunConfig three = Flags.parse("compare", new String[] {"--out", "x", "--background-threads", "3"}).config();
    assertEquals(3, three.engineSettings().backgroundThreads());
    assertEquals(3, three.asMap().get("background_threads"), "summary.json says how many ran");
    assertTrue(three.engineSettings().backgroundThreadsUnhonoured("leveldb").orElseThrow().contains("leveldb"));
    UsageException e = assertThrows(UsageException.class,
        () -> Flags.parse("compare", new String[] {"--out", "x", "--background-threads", "-1"}));
    assertTrue(e.getMessage().contains("--background-threads"), e.getMessage());
  }

  @Test
  void compressionReachesTheEnginesAndTheRecord() {
    RunConfig plain = Flags.parse("compare", new String[] {"--out", "x"}).config();
    assertEquals(1.0, plain.compressionRatio(), "random bytes, as every run before the knob");
    assertTrue(plain.engineSettings().compression().isNone());
    assertEquals("none", plain.asMap().get("compression"));
    RunConfig zstd = Flags.parse("compare", new String[] {"--out", "x", "--compression", "zstd:5",
        "--compression-ratio", "0.5"}).config();
    assertEquals(dev.cairn.config.Compression.zstd(5), zstd.engineSettings().compression());
    assertEquals("zstd:5", zstd.asMap().get("compression"));
    assertEquals(0.5, zstd.asMap().get("compression_ratio"));
    assertTrue(zstd.engineSettings().compressionUnhonoured("hbase").orElseThrow().contains("zstd:5"));
    for (String[] bad : new String[][] {{"--compression", "snappy"}, {"--compression", "zstd:0"},
        {"--compression-ratio", "0"}, {"--compression-ratio", "1.5"}, {"--compression-ratio", "half"}}) {
      UsageException e = assertThrows(UsageException.class,
          () -> Flags.parse("compare", new String[] {"--out", "x", bad[0], bad[1]}));
      assertTrue(e.getMessage().contains(bad[0]), e.getMessage());
    }
  }

  @Test
  void flagsAcceptEqualsFormAndFractions() {
    Invocation inv = Flags.parse("run", new String[] {"--engine=leveldb", "--workload=ycsb-a", "--out=o",
        "--memtable-mb=0.5", "--direct-io", "--seconds", "2.5"});
    assertEquals(List.of("leveldb"), inv.engines());
    assertEquals(512 << 10, inv.config().memtableBytes());
    assertTrue(inv.config().directIo());
    assertEquals(2.5, inv.config().seconds());
  }

  @Test
  void figureFlagsDefaultToOffAndRejectNegatives() {
    RunConfig defaults = Flags.parse("compare", new String[] {"--out", "x"}).config();
    assertEquals(0, defaults.seekDelayMillis());
    assertEquals(0, defaults.mixedSeconds());
    assertEquals(0, defaults.scanSeconds());
    assertEquals(0, defaults.engineSettings().seekDelayMillis());
    assertEquals(0, defaults.ycsbMixSeconds());
    RunConfig c = Flags.parse("compare", new String[] {"--out", "x", "--seek-delay-ms", "4.5", "--mixed-seconds=30",
        "--scan-seconds", "10", "--ycsb-mix-seconds", "45"}).config();
    assertEquals(45, c.ycsbMixSeconds());
    assertEquals(45.0, c.asMap().get("ycsb_mix_seconds"));
    assertEquals(4.5, c.seekDelayMillis());
    assertEquals(4.5, c.engineSettings().seekDelayMillis());
    assertEquals(30, c.mixedSeconds());
    assertEquals(10, c.scanSeconds());
    assertEquals(4.5, c.asMap().get("seek_delay_ms"));
    UsageException e = assertThrows(UsageException.class,
        () -> Flags.parse("compare", new String[] {"--out", "x", "--mixed-seconds", "-1"}));
    assertTrue(e.getMessage().contains("--mixed-seconds"), e.getMessage());
    e = assertThrows(UsageException.class,
        () -> Flags.parse("compare", new String[] {"--out", "x", "--ycsb-mix-seconds", "-5"}));
    assertTrue(e.getMessage().contains("--ycsb-mix-seconds"), e.getMessage());
    assertThrows(UsageException.class, () -> Flags.parse("compare", new String[] {"--out", "x", "--seek-delay-ms", "slow"}));
  }

  @Test
  void repeatChangesTheEngineOrderEachRoundAndBelongsToCompare() {
    Invocation once = Flags.parse("compare", new String[] {"--out", "x", "--engines", "cairn-table,cairn-block,rocksdb"});
    assertEquals(1, once.rounds());
    assertEquals(List.of("cairn-table", "cairn-block", "rocksdb"), once.enginesOfRound(0));
    Invocation three = Flags.parse("compare",
        new String[] {"--out", "x", "--engines", "cairn-table,cairn-table-same,rocksdb", "--repeat", "3"});
    assertEquals(3, three.rounds());
    // Three engines: a Williams design of six rounds, the listed order first (RoundOrderTest).
    assertEquals(List.of("cairn-table", "cairn-table-same", "rocksdb"), three.enginesOfRound(0));
    assertEquals(List.of("cairn-table-same", "rocksdb", "cairn-table"), three.enginesOfRound(1));
    assertEquals(List.of("rocksdb", "cairn-table-same", "cairn-table"), three.enginesOfRound(3));
    assertEquals(three.enginesOfRound(0), three.enginesOfRound(6), "the design's cycle starts again");
    UsageException onRun = assertThrows(UsageException.class, () -> Flags.parse("run",
        new String[] {"--engine", "rocksdb", "--workload", "rangehot", "--out", "x", "--repeat", "2"}));
    assertTrue(onRun.getMessage().contains("--repeat belongs to compare"), onRun.getMessage());
    assertThrows(UsageException.class, () -> Flags.parse("compare", new String[] {"--out", "x", "--repeat", "0"}));
    // A series without an A/A control could not tell its ratios from noise.
    UsageException noControl = assertThrows(UsageException.class, () -> Flags.parse("compare",
        new String[] {"--out", "x", "--engines", "cairn-table,cairn-block,rocksdb", "--repeat", "3"}));
    assertTrue(noControl.getMessage().contains("A/A control"), noControl.getMessage());
    // A forked run is one (engine, workload) of one round: it must not repeat itself.
    List<String> child = Flags.forOneRun(new String[] {"--out", "x", "--repeat", "3", "--seconds", "5"}, "rocksdb", "load");
    assertFalse(child.stream().anyMatch(f -> f.startsWith("--repeat")), child.toString());
    assertTrue(child.contains("--seconds=5"), child.toString());
  }

  @Test
  void aCappedDeviceReadsDirectlyAndRunsEachEngineInItsOwnProcess() {
    Invocation capped = Flags.parse("compare", new String[] {"--out", "x", "--device-read-iops", "400"});
    assertEquals(400, capped.config().deviceReadIops());
    assertTrue(capped.config().directIo(), "on the capped device every engine that can reads directly");
    assertEquals(400, capped.config().asMap().get("device_read_iops"));
    UsageException sameJvm = assertThrows(UsageException.class, () -> Flags.parse("compare",
        new String[] {"--out", "x", "--device-read-iops", "400", "--same-jvm"}));
    assertTrue(sameJvm.getMessage().contains("--same-jvm"), sameJvm.getMessage());
    assertThrows(UsageException.class, () -> Flags.parse("compare", new String[] {"--out", "x", "--device-read-iops", "-1"}));
    assertFalse(Flags.parse("compare", new String[] {"--out", "x"}).config().deviceCapped());
  }

  @Test
  void helpPrintsUsage() throws Exception {
    assertEquals(BenchMain.EXIT_OK, OutputChecks.execute(new StringBuilder(), "help"));
    assertTrue(BenchMain.usage().contains("compare") && BenchMain.usage().contains("jmh -f 1"));
  }
}
