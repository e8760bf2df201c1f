package dev.cairn.bench.report;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The figures docs/choosing.md and the README quote, rendered from the series records kept under
 * docs/results rather than copied by hand, so that no summary drops a loss or drifts from its
 * records. A document marks each generated block:
 *
 * <pre>
 * &lt;!-- generated from issue55/slow1 as tables --&gt;
 * ...rendered text...
 * &lt;!-- end generated --&gt;
 * </pre>
 *
 * naming the series folder (relative to docs/results) and the form: {@code tables} (every
 * workload's engine figures and ratios, as series.md has them), {@code ratios} (one table of
 * every ratio with its verdict: reads/s, the steady window, read p99, misses and device reads per
 * read, write amplification and peak space), {@code shapes} (several folders, comma-separated:
 * each ratio of the first beside the same ratio in the others, the held-out shapes) or {@code
 * matrix} (the folder a {@code matrix} command wrote: Cairn's default judged cell by cell,
 * {@link MatrixTable}). {@link #regenerate} renders every block anew from the rounds'
 * summary.json and timeseries.csv ({@link SeriesRecords}); {@code GeneratedDocsTest} fails when a
 * document's text and its records disagree, and {@code java -jar cairn-bench.jar docs
 * --root REPO} writes them.
 */
public final class GeneratedDocs {
  static final Pattern BLOCK = Pattern.compile(
      "<!-- generated from (\\S+) as (tables|ratios|shapes|matrix) -->\\n(.*?)<!-- end generated -->", Pattern.DOTALL);
  /** The documents, relative to the repository's root, that carry generated blocks. */
  public static final List<String> DOCUMENTS = List.of("README.md", "docs/choosing.md");
  private static final List<Figure> RATIO_FIGURES = List.of(Figure.READS, Figure.READS_AFTER, Figure.READ_P99,
      Figure.HIGH_PHASE_READ_P99, Figure.MISSES_PER_READ, Figure.DEVICE_READS_PER_READ, Figure.WRITE_AMPLIFICATION,
      Figure.PEAK_SPACE);

  private static final List<Figure> SHAPE_FIGURES = List.of(Figure.READS, Figure.READS_AFTER, Figure.PEAK_SPACE);

  private GeneratedDocs() {}

  /** {@code doc} with every generated block rendered anew from the series under {@code results}. */
  public static String regenerate(String doc, Path results) throws IOException {
    Matcher m = BLOCK.matcher(doc);
    StringBuilder out = new StringBuilder();
    int last = 0;
    while (m.find()) {
      out.append(doc, last, m.start(3)).append(render(results, m.group(1), m.group(2)));
      last = m.end(3);
    }
    return out.append(doc.substring(last)).toString();
  }

  /** The series folders (relative to docs/results) that {@code doc}'s blocks name. */
  public static List<String> seriesNamed(String doc) {
    List<String> names = new ArrayList<>();
    Matcher m = BLOCK.matcher(doc);
    while (m.find()) {
      names.addAll(List.of(m.group(1).split(",")));
    }
    return names;
  }

  static String render(Path results, String folders, String form) throws IOException {
    if (form.equals("matrix")) {
      return MatrixTable.render(results.resolve(folders));
    }
    List<String> names = List.of(folders.split(","));
    List<SeriesRecords> series = new ArrayList<>();
    for (String name : names) {
      series.add(SeriesRecords.load(results.resolve(name)));
    }
    SeriesRecords s = series.get(0);
    String text = switch (form) {
      case "tables" -> SeriesReport.tables(s.rounds(), s.engines(), "#### ");
      case "ratios" -> SeriesReport.ratioTable(s.rounds(), s.engines(), RATIO_FIGURES);
      default -> SeriesReport.shapesTable(names, series, SHAPE_FIGURES);
    };
    return text.endsWith("\n\n") ? text.substring(0, text.length() - 1) : text;
  }

  /**
   * {@code docs --root REPO}: rewrites every generated block of {@link #DOCUMENTS} under REPO from
   * REPO/docs/results; returns the documents it changed.
   */
  public static List<String> writeAll(Path root) throws IOException {
    List<String> changed = new ArrayList<>();
    for (String name : DOCUMENTS) {
      Path file = root.resolve(name);
      String doc = Files.readString(file);
      String fresh = regenerate(doc, root.resolve("docs/results"));
      if (!fresh.equals(doc)) {
        Files.writeString(file, fresh);
        changed.add(name);
      }
    }
    return changed;
  }
}
