package dev.cairn.bench;

import dev.cairn.bench.cli.BlockDbExperiment;
import dev.cairn.bench.cli.DefaultMatrix;
import dev.cairn.bench.cli.Flags;
import dev.cairn.bench.cli.Invocation;
import dev.cairn.bench.cli.UsageException;
import dev.cairn.bench.device.ReadIopsCap;
import dev.cairn.bench.engine.Engines;
import dev.cairn.bench.report.FinishedRound;
import dev.cairn.bench.report.GeneratedDocs;
import dev.cairn.bench.report.Json;
import dev.cairn.bench.report.Outputs;
import dev.cairn.bench.report.RunFigures;
import dev.cairn.bench.report.SeriesRecords;
import dev.cairn.bench.report.SeriesReport;
import dev.cairn.bench.run.ForkedRunner;
import dev.cairn.bench.run.KeptRuns;
import dev.cairn.bench.run.RunResult;
import dev.cairn.bench.run.RunResultFile;
import dev.cairn.bench.run.Runner;
import dev.cairn.bench.workload.Workloads;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * The benchmark jar's entry point: {@code run} and {@code compare} drive the workload runner
 * (docs/benchmarks.md), {@code jmh} hands its arguments to JMH for the microbenchmarks in
 * {@code dev.cairn.bench.micro}, {@code summarize} reports a finished run's steady state
 * ({@link dev.cairn.bench.report.SteadyState}), {@code hiccups} measures the machine's own stalls
 * ({@link dev.cairn.bench.run.MachineHiccups}), {@code copies} times checkpoints, backups and many
 * databases in one process ({@link dev.cairn.bench.copies.CopiesCommand}), {@code features} times
 * counters as merges against read-modify-writes and range deletes against per-key deletes ({@link
 * dev.cairn.bench.features.FeaturesCommand}).
 * Exit codes: 0 success, 1 a run failed, 2 a bad command line.
 */
public final class BenchMain {
  public static final int EXIT_OK = 0;
  public static final int EXIT_RUN_FAILED = 1;
  public static final int EXIT_USAGE = 2;
  /**
   * The command a forked run's JVM is started with ({@link ForkedRunner}): {@code child RESULT
   * run FLAGS} runs one (engine, workload) and writes its result to the file RESULT. Not for users,
   * so usage does not list it.
   */
  public static final String CHILD_COMMAND = "child";

  private BenchMain() {}

  public static void main(String[] args) throws Exception {
    int code = execute(args, System.out, System.err);
    if (code != EXIT_OK) {
      System.exit(code);
    }
  }

  /** Runs a command line; returns the exit code (for tests, which must not exit the JVM). */
  public static int execute(String[] args, PrintStream out, PrintStream err) throws Exception {
    if (args.length == 0) {
      out.print(usage());
      return EXIT_OK;
    }
    String command = args[0];
    String[] rest = Arrays.copyOfRange(args, 1, args.length);
    try {
      switch (command) {
        case "run", "compare" -> {
          // A series (compare --repeat) resumes like a matrix cell: run again into the same
          // folder, it keeps its finished rounds and ended runs rather than overwriting them.
          Invocation inv = Flags.parse(command, rest);
          return runOrCompare(inv, rest, inv.rounds() > 1, err);
        }
        case CHILD_COMMAND -> {
          return runInChild(rest, err);
        }
        case "jmh" -> {
          // JMH's own error for a jar without benchmarks is a stack trace; say what is missing.
          if (BenchMain.class.getResource("/META-INF/BenchmarkList") == null) {
            err.println("error: this jar holds no JMH benchmarks yet (none compiled in dev.cairn.bench.micro)");
            return EXIT_RUN_FAILED;
          }
          org.openjdk.jmh.Main.main(rest);
          return EXIT_OK;
        }
        case "series" -> {
          return series(rest, out);
        }
        case "matrix" -> {
          return cells("matrix", DefaultMatrix.cells(rest), err);
        }
        case "blockdb" -> {
          return cells("blockdb", BlockDbExperiment.cells(rest), err);
        }
        case "docs" -> {
          if (rest.length != 2 || !rest[0].equals("--root")) {
            throw new UsageException("docs takes --root REPO (the repository whose README.md and docs/ to render)");
          }
          List<String> changed = GeneratedDocs.writeAll(Path.of(rest[1]));
          out.println(changed.isEmpty() ? "generated blocks already match their records" : "rewrote " + changed);
          return EXIT_OK;
        }
        case "summarize" -> {
          out.print(dev.cairn.bench.report.SteadyState.run(rest));
          return EXIT_OK;
        }
        case "cache-replay" -> {
          out.print(dev.cairn.bench.report.CacheReplay.run(rest));
          return EXIT_OK;
        }
        case "hiccups" -> {
          out.print(dev.cairn.bench.run.MachineHiccups.run(rest));
          return EXIT_OK;
        }
        case "copies" -> {
          dev.cairn.bench.copies.CopiesCommand.run(rest, err);
          return EXIT_OK;
        }
        case "features" -> {
          dev.cairn.bench.features.FeaturesCommand.run(rest, err);
          return EXIT_OK;
        }
        case "help", "-h", "--help" -> {
          out.print(usage());
          return EXIT_OK;
        }
        default -> throw new UsageException("unknown command '" + command + "'; valid commands: run, compare, matrix, blockdb, series, docs, summarize, cache-replay, hiccups, copies, features, jmh, help");
      }
    } catch (UsageException e) {
      err.println("error: " + e.getMessage());
      err.println("run 'java -jar cairn-bench.jar help' for usage");
      return EXIT_USAGE;
    }
  }

  /**
   * With {@code keepFinishedRounds}, a round of a series whose folder holds its report (written
   * when the round's last run ended) is read back from its records instead of run again, and in
   * the round it was in, the runs that ended are read back too ({@link KeptRuns}), so a series
   * stopped midway resumes at the run it was in.
   */
  private static int runOrCompare(Invocation inv, String[] flags, boolean keepFinishedRounds,
      PrintStream progress) throws IOException {
    if (inv.config().deviceCapped()) {
      refuseUnlessCapPossible(inv.config());
    }
    Runner runner = new Runner(inv.config(), progress);
    ForkedRunner forked = new ForkedRunner(inv.config(), progress, flags);
    List<List<RunFigures>> rounds = new ArrayList<>();
    for (int round = 0; round < inv.rounds(); round++) {
      Path out = inv.rounds() == 1 ? inv.out() : inv.out().resolve("round-" + (round + 1));
      if (keepFinishedRounds && inv.rounds() > 1 && FinishedRound.isFinished(out)) {
        rounds.add(FinishedRound.figures(out, inv.config(), inv.engines(), inv.workloads()));
        progress.println(out + " holds a finished round: kept");
        continue;
      }
      KeptRuns kept = keepFinishedRounds ? KeptRuns.in(out, inv.config(), progress) : KeptRuns.NONE;
      rounds.add(runRound(inv, inv.enginesOfRound(round), out, runner, forked, kept).stream()
          .map(RunFigures::of).toList());
      kept.clear();
      progress.println("wrote " + out.resolve("report.md"));
    }
    if (inv.rounds() > 1) {
      writeSeries(inv.out(), rounds, inv.engines(), inv.config().asMap(), progress);
    }
    removeIfEmpty(inv.config().dataDir());
    return rounds.stream().flatMap(List::stream).allMatch(RunFigures::ok) ? EXIT_OK : EXIT_RUN_FAILED;
  }

  /** Every (engine, workload) once, {@code engines} in this order, the outputs into {@code out}. */
  private static List<RunResult> runRound(Invocation inv, List<String> engines, Path out, Runner runner,
      ForkedRunner forked, KeptRuns kept) throws IOException {
    List<RunResult> results = new ArrayList<>();
    // Workload-major order, so that one workload's engines run back to back on the same machine state.
    for (String workload : inv.workloads()) {
      for (String engine : engines) {
        java.util.Optional<RunResult> earlier = kept.get(engine, workload);
        RunResult r = earlier.isPresent() ? earlier.get()
            : inv.sameJvm() ? runner.run(engine, Workloads.get(workload)) : forked.run(engine, workload);
        if (earlier.isEmpty()) {
          kept.keep(r);
        }
        results.add(r);
        // The data files after each run, so that an interrupted comparison keeps what it measured.
        Outputs.writeData(out, results);
      }
    }
    Outputs.writeAll(out, results);
    return results;
  }

  /** series.md and series.json of a series' rounds into {@code out}. */
  private static void writeSeries(Path out, List<List<RunFigures>> rounds, List<String> engines,
      Map<String, Object> config, PrintStream progress) throws IOException {
    Files.writeString(out.resolve("series.md"), SeriesReport.render(rounds, engines, config));
    Files.writeString(out.resolve("series.json"), Json.write(SeriesReport.json(rounds, engines, config)));
    progress.println("wrote " + out.resolve("series.md") + " and series.json");
  }

  /**
   * The series of each cell of {@code cells} ({@link DefaultMatrix}, {@link BlockDbExperiment})
   * not done yet, one after the other; failed if any run failed.
   */
  private static int cells(String command, List<DefaultMatrix.Cell> cells, PrintStream progress)
      throws IOException {
    List<Invocation> invocations = new ArrayList<>();
    for (DefaultMatrix.Cell cell : cells) { // every cell's flags checked before the first run
      invocations.add(Flags.parse("compare", cell.command().toArray(String[]::new)));
    }
    int code = EXIT_OK;
    for (int i = 0; i < cells.size(); i++) {
      DefaultMatrix.Cell cell = cells.get(i);
      if (cell.done()) {
        progress.println(command + ": " + cell.out() + " holds its series already: kept");
        continue;
      }
      progress.println(command + ": compare " + String.join(" ", cell.command()));
      if (runOrCompare(invocations.get(i), cell.command().toArray(String[]::new), true, progress) != EXIT_OK) {
        code = EXIT_RUN_FAILED;
      }
    }
    return code;
  }

  /**
   * {@code series --out DIR}: series.md and series.json rendered again from the kept records of
   * DIR/round-1 .. round-N (each round's summary.json and timeseries.csv), the engines in round 1's order.
   */
  private static int series(String[] args, PrintStream progress) throws IOException {
    if (args.length != 2 || !args[0].equals("--out")) {
      throw new UsageException("series takes --out DIR (a compare --repeat output with round-1 .. round-N)");
    }
    Path out = Path.of(args[1]);
    if (!Files.isDirectory(out.resolve("round-1"))) {
      throw new UsageException(out + " holds no round-1 directory: not the output of compare --repeat");
    }
    SeriesRecords series = SeriesRecords.load(out);
    writeSeries(out, series.rounds(), series.engines(), series.config(), progress);
    return EXIT_OK;
  }

  /** Makes and removes one capped group, so that a machine without one refuses before any run. */
  private static void refuseUnlessCapPossible(RunConfig config) {
    try (ReadIopsCap probe = ReadIopsCap.create(config.dataDir(), config.deviceReadIops(), "cairn-probe")) {
      removeIfEmpty(config.dataDir());
    } catch (IOException e) {
      throw new UsageException(e.getMessage());
    }
  }

  /** {@code child RESULT run FLAGS}: one run, its result written to RESULT for the parent to read. */
  private static int runInChild(String[] args, PrintStream progress) throws IOException {
    if (args.length < 2 || !args[1].equals("run")) {
      throw new UsageException("'" + CHILD_COMMAND + "' is the runner's own: child RESULT_FILE run FLAGS");
    }
    Invocation inv = Flags.parse("run", Arrays.copyOfRange(args, 2, args.length));
    RunResult result = new Runner(inv.config(), progress).run(inv.engines().get(0),
        Workloads.get(inv.workloads().get(0)));
    RunResultFile.write(Path.of(args[0]), result);
    return result.ok() ? EXIT_OK : EXIT_RUN_FAILED;
  }

  private static void removeIfEmpty(Path dir) {
    try {
      Files.deleteIfExists(dir);
    } catch (IOException e) {
      // Not empty (--keep-data) or not ours to remove: leave it.
    }
  }

  static String usage() {
    StringBuilder sb = new StringBuilder();
    sb.append("Cairn workload runner and microbenchmarks\n\n")
        .append("usage:\n")
        .append("  java -jar cairn-bench.jar run --engine ENGINE --workload WORKLOAD --out DIR [flags]\n")
        .append("  java -jar cairn-bench.jar compare [--engines E1,E2,..] [--workloads W1,W2,..] --out DIR [flags]\n")
        .append("  java -jar cairn-bench.jar jmh [JMH options]   e.g. jmh -f 1 -wi 2 -i 3 -w 1s -r 1s\n")
        .append("  java -jar cairn-bench.jar matrix --out DIR [--devices page,slow] [compare flags]   (what Cairn's default is judged on: a series a device and workload, into DIR/DEVICE/WORKLOAD; cells and rounds done are kept)\n")
        .append("  java -jar cairn-bench.jar blockdb --out DIR [--shapes leveldb,defaults] [compare flags]   (BlockDB's load experiment: 20,000,000 records of 32-byte keys and 1 KiB values settled, then reads and scans, beside RocksDB and LevelDB, a series a level shape into DIR/SHAPE; series and rounds done are kept)\n")
        .append("  java -jar cairn-bench.jar series --out DIR   (series.md and series.json again from a series' kept records)\n")
        .append("  java -jar cairn-bench.jar docs --root REPO   (the README's and docs/choosing.md's figures from docs/results)\n")
        .append("  java -jar cairn-bench.jar summarize --out DIR --after SECONDS   (a finished run's steady state)\n")
        .append("  java -jar cairn-bench.jar cache-replay --trace FILE [--cache-mb A,B] [--from F]   (a block cache trace against each policy)\n")
        .append("  java -jar cairn-bench.jar hiccups [--threads N] [--seconds S]   (this machine's own stalls: the floor under a p99)\n")
        .append("  java -jar cairn-bench.jar copies --out DIR [--records N] [--value-bytes B] [--databases D] [--many-records R] [--repeat K] [--data-dir DIR] [--seed X]\n")
        .append("      (checkpoint and backup times per compaction style; D databases on their own resources and on one SharedResources;\n")
        .append("       its flags' defaults, 1000000 records, 20 databases of 200000, 3 rounds, are the full figures: docs/benchmarks.md)\n")
        .append("  java -jar cairn-bench.jar features --out DIR [--experiments counter,range-delete] [--counters N] [--increments N] [--records N] [--gets N] [--scans N] [--repeat R] [--data-dir DIR] [--cache-mb M] [--seed X]\n")
        .append("      (on cairn, its A/A twin, rocksdb and rocksdb-best: 64-bit counters as merges, reads after them and read-modify-writes;\n")
        .append("       a tenth of the records deleted by one deleteRange and by a delete per key, the reads right after, a full compaction;\n")
        .append("       its flags' defaults, both experiments, 100000 counters, 2000000 increments, 1000000 records, 200000 gets, 2000 scans,\n")
        .append("       3 rounds, 64 MiB caches, are the full figures: docs/benchmarks.md)\n")
        .append("  java -jar cairn-bench.jar help\n\n")
        .append("engines:   ").append(String.join(", ", Engines.names())).append('\n')
        .append("workloads: ").append(String.join(", ", Workloads.names())).append("\n\nflags:\n");
    for (Map.Entry<String, String> e : Flags.HELP.entrySet()) {
      sb.append(String.format("  %-20s %s%n", e.getKey(), e.getValue()));
    }
    sb.append("\nOutputs in --out: timeseries.csv, summary.json, report.md, *.png (docs/benchmarks.md);\n")
        .append("with --repeat N, those of each round in --out/round-1 .. round-N and the medians in --out/series.md.\n");
    return sb.toString();
  }
}
