package dev.cairn.bench.report;

import dev.cairn.bench.cli.CommandFlags;
import dev.cairn.bench.cli.UsageException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * {@code summarize --out DIR --after S}: a finished run's steady state, from its {@code
 * timeseries.csv} alone. On a slow device the cache takes tens of seconds to warm from empty,
 * so a whole-run mean mostly measures warm-up; this keeps the per-second samples after {@code
 * S} seconds and reports, per workload and engine (in the file's order), the hit ratio's mean and
 * min, reads/s, writes/s, the buffer's size and the database's. Writes the tables to {@code
 * steady.md} in the run folder and returns them.
 */
public final class SteadyState {
  /** The columns read, by the names {@link Outputs#CSV_COLUMNS} writes (checked when the class loads). */
  private static final String[] COLUMNS = {"elapsed_s", "engine", "workload", "reads_per_s", "writes_per_s",
      "hit_ratio", "db_bytes", "buffer_bytes"};

  static {
    for (String c : COLUMNS) {
      if (!Outputs.CSV_COLUMNS.contains(c)) {
        throw new IllegalStateException("summarize reads column '" + c + "', which timeseries.csv no longer has");
      }
    }
  }

  private SteadyState() {}

  /** Reads {@code dir/timeseries.csv}, writes {@code dir/steady.md}, returns its Markdown. */
  public static String summarize(Path dir, double after) throws IOException {
    if (!(after >= 0)) {
      throw new UsageException("--after must be a number of seconds >= 0, got " + after);
    }
    Path csv = dir.resolve("timeseries.csv");
    if (!Files.isRegularFile(csv)) {
      throw new UsageException("no timeseries.csv in " + dir + " (is it a compare/run output folder?)");
    }
    List<String> lines = Files.readAllLines(csv, StandardCharsets.UTF_8);
    if (lines.isEmpty()) {
      throw new UsageException(csv + " is empty");
    }
    String[] header = lines.get(0).split(",", -1);
    Map<String, Integer> col = new LinkedHashMap<>();
    for (int i = 0; i < header.length; i++) {
      col.put(header[i], i);
    }
    for (String c : COLUMNS) {
      if (!col.containsKey(c)) {
        throw new UsageException(csv + " has no column '" + c + "'");
      }
    }
    // workload -> engine -> samples, in first-seen order
    Map<String, Map<String, Figures>> byWorkload = new LinkedHashMap<>();
    for (int n = 1; n < lines.size(); n++) {
      if (lines.get(n).isBlank()) {
        continue;
      }
      String[] f = lines.get(n).split(",", -1);
      if (f.length != header.length) {
        throw new UsageException(csv + " line " + (n + 1) + " has " + f.length + " fields, the header " + header.length);
      }
      if (number(f[col.get("elapsed_s")]) <= after) {
        continue;
      }
      byWorkload.computeIfAbsent(f[col.get("workload")], w -> new LinkedHashMap<>())
          .computeIfAbsent(f[col.get("engine")], e -> new Figures())
          .add(number(f[col.get("hit_ratio")]), number(f[col.get("reads_per_s")]),
              number(f[col.get("writes_per_s")]), number(f[col.get("buffer_bytes")]), number(f[col.get("db_bytes")]));
    }
    if (byWorkload.isEmpty()) {
      throw new UsageException("no sample of " + csv + " lies after " + after + " s");
    }
    StringBuilder md = new StringBuilder();
    md.append(String.format(Locale.ROOT, "Steady state: the per-second samples after %s s of each run "
        + "(`summarize --out %s --after %s`).%n", plain(after), dir, plain(after)));
    byWorkload.forEach((workload, engines) -> {
      md.append("\n## ").append(workload).append("\n\n")
          .append("| engine | samples | hit ratio mean | hit ratio min | reads/s | writes/s | buffer MiB mean | buffer MiB max | db MiB mean |\n")
          .append("|---|---|---|---|---|---|---|---|---|\n");
      engines.forEach((engine, s) -> md.append(String.format(Locale.ROOT, "| %s | %d | %s | %s | %s | %s | %s | %s | %s |%n",
          engine, s.samples, ratio(s.hit.mean()), ratio(s.hit.min), count(s.reads.mean()), count(s.writes.mean()),
          mib(s.buffer.mean()), mib(s.buffer.max), mib(s.db.mean()))));
    });
    Files.writeString(dir.resolve("steady.md"), md.toString(), StandardCharsets.UTF_8);
    return md.toString();
  }

  /** NaN for an empty field (LevelDB has no hit ratio; Cairn table compaction no buffer). */
  private static double number(String s) {
    if (s.isEmpty()) {
      return Double.NaN;
    }
    try {
      return Double.parseDouble(s);
    } catch (NumberFormatException e) {
      return Double.NaN;
    }
  }

  private static String plain(double v) {
    return v == Math.rint(v) ? Long.toString((long) v) : Double.toString(v);
  }

  private static String ratio(double v) {
    return Double.isNaN(v) ? "n/a" : String.format(Locale.ROOT, "%.3f", v);
  }

  private static String count(double v) {
    return Double.isNaN(v) ? "n/a" : String.format(Locale.ROOT, "%,.0f", v);
  }

  private static String mib(double v) {
    return Double.isNaN(v) ? "n/a" : String.format(Locale.ROOT, "%.1f", v / (1 << 20));
  }

  /** Running mean, min and max of the numeric samples of one column (NaN ones skipped). */
  private static final class Column {
    private double sum;
    private int count;
    double min = Double.NaN;
    double max = Double.NaN;

    void add(double v) {
      if (Double.isNaN(v)) {
        return;
      }
      sum += v;
      count++;
      min = Double.isNaN(min) ? v : Math.min(min, v);
      max = Double.isNaN(max) ? v : Math.max(max, v);
    }

    double mean() {
      return count == 0 ? Double.NaN : sum / count;
    }
  }

  private static final class Figures {
    int samples;
    final Column hit = new Column();
    final Column reads = new Column();
    final Column writes = new Column();
    final Column buffer = new Column();
    final Column db = new Column();

    void add(double hitRatio, double readsPerS, double writesPerS, double bufferBytes, double dbBytes) {
      samples++;
      hit.add(hitRatio);
      reads.add(readsPerS);
      writes.add(writesPerS);
      buffer.add(bufferBytes);
      db.add(dbBytes);
    }
  }

  /** Splits {@code --out DIR --after S} (both required). */
  public static String run(String[] args) throws IOException {
    Map<String, String> values = CommandFlags.parse("summarize", args, List.of("--out", "--after"));
    if (!values.containsKey("--out") || !values.containsKey("--after")) {
      throw new UsageException("summarize needs --out DIR and --after SECONDS");
    }
    double after;
    try {
      after = Double.parseDouble(values.get("--after"));
    } catch (NumberFormatException e) {
      throw new UsageException("--after must be a number of seconds, got '" + values.get("--after") + "'");
    }
    return summarize(Path.of(values.get("--out")), after);
  }
}
