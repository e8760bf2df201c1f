package dev.cairn.bench.features;

import dev.cairn.bench.copies.Machine;
import dev.cairn.bench.report.Json;
import dev.cairn.bench.run.DirectorySize;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * {@code features --out DIR [flags]}: two experiments on Cairn, its A/A twin, RocksDB at its
 * defaults and at its best ({@link CounterEngines}), selected by {@code --experiments} (both by
 * default; docs/benchmarks.md, "Features: counters and range deletes"):
 *
 * <ul>
 *   <li>{@code counter}: a 64-bit counter workload three ways on each engine: increments as merge
 *       operands, the reads of every counter right after them, and the same increments as
 *       read-modify-writes ({@link EngineFigures}), every database checked against the harness's
 *       reference;
 *   <li>{@code range-delete}: a tenth of a loaded key space deleted by one range delete and by a
 *       delete per key, each on a fresh database, then reads right after, a full compaction and a
 *       check ({@link RangeDeleteFigures}, {@link RangeRun}), every read checked.
 * </ul>
 *
 * <p>{@code --repeat} rounds, each running the experiments in turn and each experiment's engines in
 * a rotated order ({@link CounterEngines#order}). report.md gives each figure's median
 * [smallest-largest] over the rounds and each engine's ratio to {@code cairn} against the A/A band
 * ({@link FeaturesReport}, {@link RangeDeleteReport}); summary.json every round's figures. Both are
 * rewritten after every round.
 */
public final class FeaturesCommand {
  private FeaturesCommand() {}

  /**
   * Runs the command with {@code args} (its flags), reporting progress on {@code progress};
   * returns the path of report.md.
   *
   * @throws IllegalStateException if an engine's counters differ from the reference, or an engine
   *     returned a deleted key, missed a live one or returned a wrong value after its deletes
   */
  public static Path run(String[] args, PrintStream progress) throws IOException {
    FeaturesSettings s = FeaturesSettings.parse(args);
    String command = commandLine(args);
    Machine machine = Machine.describe();
    Files.createDirectories(s.out());
    CounterWorkload counters = null;
    int reached = 0;
    if (s.runs(FeaturesSettings.COUNTER)) {
      long start = System.nanoTime();
      counters = CounterWorkload.draw(s.counters(), s.increments(), s.seed());
      reached = counters.countersReached();
      progress.println(String.format(Locale.ROOT, "features: counter: %,d increments over %,d counters (%,d "
          + "reached) drawn in %.1f s", s.increments(), s.counters(), reached, (System.nanoTime() - start) / 1e9));
    }
    RangeDeleteWorkload ranges = null;
    if (s.runs(FeaturesSettings.RANGE_DELETE)) {
      ranges = RangeDeleteWorkload.draw(s.records(), s.gets(), s.scans(), s.seed());
      progress.println(String.format(Locale.ROOT, "features: range-delete: %,d records, %,d of them deleted "
          + "from record %,d; %,d gets and %,d scans drawn", s.records(), ranges.deleted(), ranges.deleteFrom(),
          s.gets(), s.scans()));
    }
    List<FeaturesRound> rounds = new ArrayList<>();
    for (int round = 1; round <= s.repeat(); round++) {
      List<String> order = CounterEngines.order(round - 1);
      progress.println("features: round " + round + " of " + s.repeat() + ": " + String.join(", ", order));
      Path dir = s.dataDir().resolve("features-round-" + round);
      List<EngineFigures> engines = new ArrayList<>();
      if (counters != null) {
        for (int i = 0; i < order.size(); i++) {
          engines.add(EngineFigures.measure(order.get(i), i + 1, dir.resolve(order.get(i)), counters,
              s.cacheBytes(), progress));
        }
      }
      List<RangeDeleteFigures> rangeDeletes = new ArrayList<>();
      if (ranges != null) {
        List<RangeMethod> methods = RangeMethod.order(round - 1);
        for (int i = 0; i < order.size(); i++) {
          rangeDeletes.add(RangeDeleteFigures.measure(order.get(i), i + 1, dir.resolve("range-" + order.get(i)),
              ranges, s.cacheBytes(), methods, progress));
        }
      }
      DirectorySize.deleteRecursively(dir);
      rounds.add(new FeaturesRound(round, engines, rangeDeletes));
      // Rewritten after every round, so that an interrupted run keeps what it measured.
      Files.writeString(s.out().resolve("report.md"), FeaturesReport.markdown(command, machine, s, reached, rounds));
      Files.writeString(s.out().resolve("summary.json"),
          Json.write(FeaturesReport.json(command, machine, s, reached, rounds)));
    }
    removeIfEmpty(s.dataDir());
    Path report = s.out().resolve("report.md");
    progress.println("wrote " + report + " and summary.json");
    return report;
  }

  /** The command line as a user would type it again, for report.md's first line. */
  static String commandLine(String[] args) {
    StringBuilder sb = new StringBuilder("java -jar cairn-bench.jar features");
    for (String a : args) {
      sb.append(' ').append(a.isEmpty() || a.chars().anyMatch(Character::isWhitespace) ? "'" + a + "'" : a);
    }
    return sb.toString();
  }

  private static void removeIfEmpty(Path dir) {
    try {
      Files.deleteIfExists(dir);
    } catch (IOException e) {
      // Not empty: not ours alone to remove.
    }
  }
}
