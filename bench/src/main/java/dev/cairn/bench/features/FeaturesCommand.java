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
 * {@code features --out DIR [flags]}: a 64-bit counter workload three ways on each engine
 * (docs/benchmarks.md, "Counters: merge against read-modify-write"): increments as merge operands,
 * the reads of every counter right after them, and the same increments as read-modify-writes
 * ({@link EngineFigures}), on Cairn, its A/A twin, RocksDB at its defaults and at its best
 * ({@link CounterEngines}), every database checked against the harness's reference.
 *
 * <p>{@code --repeat} rounds, each running the engines in a rotated order ({@link
 * CounterEngines#order}). report.md gives each rate's median [smallest-largest] over the rounds and
 * each engine's ratio to {@code cairn} against the A/A band ({@link FeaturesReport}); summary.json
 * every round's figures. Both are rewritten after every round.
 */
public final class FeaturesCommand {
  private FeaturesCommand() {}

  /**
   * Runs the command with {@code args} (its flags), reporting progress on {@code progress};
   * returns the path of report.md.
   *
   * @throws IllegalStateException if an engine's counters differ from the reference
   */
  public static Path run(String[] args, PrintStream progress) throws IOException {
    FeaturesSettings s = FeaturesSettings.parse(args);
    String command = commandLine(args);
    Machine machine = Machine.describe();
    Files.createDirectories(s.out());
    long start = System.nanoTime();
    CounterWorkload workload = CounterWorkload.draw(s.counters(), s.increments(), s.seed());
    int reached = workload.countersReached();
    progress.println(String.format(Locale.ROOT, "features: %,d increments over %,d counters (%,d reached) drawn "
        + "in %.1f s", s.increments(), s.counters(), reached, (System.nanoTime() - start) / 1e9));
    List<FeaturesRound> rounds = new ArrayList<>();
    for (int round = 1; round <= s.repeat(); round++) {
      List<String> order = CounterEngines.order(round - 1);
      progress.println("features: round " + round + " of " + s.repeat() + ": " + String.join(", ", order));
      Path dir = s.dataDir().resolve("features-round-" + round);
      List<EngineFigures> engines = new ArrayList<>();
      for (int i = 0; i < order.size(); i++) {
        engines.add(EngineFigures.measure(order.get(i), i + 1, dir.resolve(order.get(i)), workload, s.cacheBytes(),
            progress));
      }
      DirectorySize.deleteRecursively(dir);
      rounds.add(new FeaturesRound(round, engines));
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
