package dev.cairn.bench.copies;

import dev.cairn.bench.engine.CairnRecipe.Style;
import dev.cairn.bench.report.Json;
import dev.cairn.bench.run.DirectorySize;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;

/**
 * {@code copies --out DIR [flags]}: the figures an operator asks for before relying on Cairn's
 * copies and on many databases in one process (docs/benchmarks.md, "Checkpoints, backups and many
 * databases"):
 *
 * <ol>
 *   <li>per compaction style (TABLE, BLOCK, BUFFER), a database of {@code --records} keys loaded and
 *       settled, then {@code db.checkpoint(dir)} timed, its bytes and its tables linked against copied
 *       ({@link CheckpointFigures});
 *   <li>on the same database, a full backup, 10% of the keys overwritten, an incremental backup,
 *       its verify and its restore, each timed, with the bytes each backup wrote ({@link BackupFigures});
 *   <li>{@code --databases} databases loaded at once, each on its own resources and all on one
 *       {@code SharedResources}: puts/s, memory held and threads ({@link ManyFigures}).
 * </ol>
 *
 * {@code --repeat} rounds of all three, the many-databases configurations in turn first, so that
 * neither always runs on the JVM the other warmed. report.md gives each figure's median
 * [smallest-largest] over the rounds ({@link CopiesReport}); summary.json every round's figures.
 */
public final class CopiesCommand {
  private CopiesCommand() {}

  /**
   * Runs the command with {@code args} (its flags), reporting progress on {@code progress};
   * returns the path of report.md.
   */
  public static Path run(String[] args, PrintStream progress) throws IOException, InterruptedException {
    CopiesSettings s = CopiesSettings.parse(args);
    String command = commandLine(args);
    Machine machine = Machine.describe();
    Files.createDirectories(s.out());
    List<RoundFigures> rounds = new ArrayList<>();
    for (int round = 1; round <= s.repeat(); round++) {
      progress.println("copies: round " + round + " of " + s.repeat());
      rounds.add(round(round, s.dataDir().resolve("copies-round-" + round), s, progress));
      // Rewritten after every round, so that an interrupted run keeps what it measured.
      Files.writeString(s.out().resolve("report.md"), CopiesReport.markdown(command, machine, s, rounds));
      Files.writeString(s.out().resolve("summary.json"), Json.write(CopiesReport.json(command, machine, s, rounds)));
    }
    removeIfEmpty(s.dataDir());
    Path report = s.out().resolve("report.md");
    progress.println("wrote " + report + " and summary.json");
    return report;
  }

  private static RoundFigures round(int round, Path dir, CopiesSettings s, PrintStream progress)
      throws IOException, InterruptedException {
    List<StyleFigures> styles = new ArrayList<>();
    for (Style style : Style.values()) {
      styles.add(StyleFigures.measure(style, dir.resolve(style.name().toLowerCase(Locale.ROOT)), s, progress));
    }
    List<ManyDatabases.Configuration> order = new ArrayList<>(List.of(ManyDatabases.Configuration.values()));
    if (round % 2 == 0) {
      Collections.reverse(order);
    }
    List<ManyFigures> many = new ArrayList<>();
    for (ManyDatabases.Configuration c : order) {
      many.add(ManyDatabases.measure(c, dir.resolve("many-" + c.label()), s, progress));
    }
    DirectorySize.deleteRecursively(dir);
    return new RoundFigures(round, styles, many);
  }

  /** The command line as a user would type it again, for report.md's first line. */
  static String commandLine(String[] args) {
    StringBuilder sb = new StringBuilder("java -jar cairn-bench.jar copies");
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
