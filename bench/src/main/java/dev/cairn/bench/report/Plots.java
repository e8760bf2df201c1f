package dev.cairn.bench.report;

import dev.cairn.bench.run.RunResult;
import dev.cairn.bench.run.Sample;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.function.ToDoubleFunction;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.markers.SeriesMarkers;

/**
 * The papers' pictures, as PNGs: per workload, hit ratio and read throughput over time with one
 * line per engine (LSbM-tree Fig. 9-12, dLSM Fig. 9-11), total throughput and L0 tables over
 * time (DLC Fig. 6-9), the compaction buffer's bytes on disk over time when an engine has one
 * (LSbM-tree's extra space), and write amplification bars per
 * workload and engine (BlockDB). Seconds an engine did not report are left out of its line.
 */
final class Plots {
  private static final int WIDTH = 1000;
  private static final int HEIGHT = 500;

  private Plots() {}

  /** Writes every plot into {@code out}; returns the file names in the order written. */
  static List<String> writeAll(Path out, List<RunResult> results) throws IOException {
    System.setProperty("java.awt.headless", "true");
    List<String> files = new ArrayList<>();
    for (String workload : workloads(results)) {
      files.add(timeSeries(out, results, workload, "hit_ratio", "block cache hit ratio", Sample::hitRatio));
      files.add(timeSeries(out, results, workload, "read_throughput", "reads/s", Sample::readsPerSecond));
      files.add(timeSeries(out, results, workload, "ops_throughput", "operations/s (reads + writes + scans)",
          s -> s.readsPerSecond() + s.writesPerSecond() + s.scansPerSecond()));
      files.add(timeSeries(out, results, workload, "l0_files", "L0 tables",
          s -> s.l0Files() < 0 ? Double.NaN : s.l0Files()));
      files.add(timeSeries(out, results, workload, "db_bytes", "database MiB on disk",
          s -> s.dbBytes() / (double) (1 << 20)));
      if (anyBufferBytes(results, workload)) {
        files.add(timeSeries(out, results, workload, "buffer_bytes", "compaction buffer MiB on disk",
            s -> s.bufferBytes() / (1 << 20)));
      }
    }
    files.add(writeAmplification(out, results));
    for (String workload : workloads(results)) {
      if (results.stream().anyMatch(r -> r.workload().equals(workload) && !r.writeAmplificationByLevel().isEmpty())) {
        files.add(writeAmplificationByLevel(out, results, workload));
      }
    }
    return files;
  }

  /** Whether an engine of {@code workload} reported a compaction buffer (LSbM) in any second. */
  static boolean anyBufferBytes(List<RunResult> results, String workload) {
    return results.stream().filter(r -> r.workload().equals(workload))
        .flatMap(r -> r.samples().stream()).anyMatch(s -> Double.isFinite(s.bufferBytes()));
  }

  static Set<String> workloads(List<RunResult> results) {
    Set<String> names = new LinkedHashSet<>();
    results.forEach(r -> names.add(r.workload()));
    return names;
  }

  private static String timeSeries(Path out, List<RunResult> results, String workload, String what,
      String yTitle, ToDoubleFunction<Sample> metric) throws IOException {
    XYChart chart = new XYChartBuilder().width(WIDTH).height(HEIGHT)
        .title(workload + ": " + yTitle + " over time").xAxisTitle("seconds").yAxisTitle(yTitle).build();
    chart.getStyler().setMarkerSize(3);
    for (RunResult r : results) {
      if (!r.workload().equals(workload)) {
        continue;
      }
      List<Double> xs = new ArrayList<>();
      List<Double> ys = new ArrayList<>();
      for (Sample s : r.samples()) {
        double y = metric.applyAsDouble(s);
        if (Double.isFinite(y)) {
          xs.add(s.elapsedSeconds());
          ys.add(y);
        }
      }
      if (!xs.isEmpty()) {
        XYSeries series = chart.addSeries(r.engine(), xs, ys);
        series.setMarker(SeriesMarkers.CIRCLE);
      }
    }
    if (chart.getSeriesMap().isEmpty()) {
      // XChart cannot draw an empty chart; say so on a placeholder line instead.
      chart.setTitle(workload + ": no engine reported " + yTitle);
      chart.addSeries("none", new double[] {0}, new double[] {0});
    }
    String file = what + "_" + workload + ".png";
    BitmapEncoder.saveBitmap(chart, out.resolve(file).toString(), BitmapEncoder.BitmapFormat.PNG);
    return file;
  }

  /** BlockDB's per-level figure: bars per level, one series per engine (levels it did not write: 0). */
  private static String writeAmplificationByLevel(Path out, List<RunResult> results, String workload)
      throws IOException {
    CategoryChart chart = new CategoryChartBuilder().width(WIDTH).height(HEIGHT)
        .title(workload + ": write amplification by level (bytes written into the level / user bytes)")
        .xAxisTitle("level").yAxisTitle("write amplification").build();
    List<RunResult> runs = results.stream()
        .filter(r -> r.workload().equals(workload) && !r.writeAmplificationByLevel().isEmpty()).toList();
    int levels = runs.stream().mapToInt(r -> r.writeAmplificationByLevel().size()).max().orElse(0);
    List<String> names = new ArrayList<>();
    for (int level = 0; level < levels; level++) {
      names.add("L" + level);
    }
    for (RunResult r : runs) {
      List<Double> values = new ArrayList<>(r.writeAmplificationByLevel());
      while (values.size() < levels) {
        values.add(0.0);
      }
      chart.addSeries(r.engine(), names, values);
    }
    String file = "write_amplification_by_level_" + workload + ".png";
    BitmapEncoder.saveBitmap(chart, out.resolve(file).toString(), BitmapEncoder.BitmapFormat.PNG);
    return file;
  }

  private static String writeAmplification(Path out, List<RunResult> results) throws IOException {
    CategoryChart chart = new CategoryChartBuilder().width(WIDTH).height(HEIGHT)
        .title("write amplification (device bytes / user bytes, measured phase)")
        .xAxisTitle("workload").yAxisTitle("write amplification").build();
    List<String> workloads = List.copyOf(workloads(results));
    Set<String> engines = new LinkedHashSet<>();
    results.forEach(r -> engines.add(r.engine()));
    for (String engine : engines) {
      List<Double> values = new ArrayList<>();
      for (String w : workloads) {
        double wa = results.stream().filter(r -> r.engine().equals(engine) && r.workload().equals(w))
            .mapToDouble(RunResult::writeAmplification).findFirst().orElse(Double.NaN);
        // A bar of 0 where an engine did not write or could not count (read-only workloads).
        values.add(Double.isFinite(wa) ? wa : 0.0);
      }
      chart.addSeries(engine, workloads, values);
    }
    String file = "write_amplification.png";
    BitmapEncoder.saveBitmap(chart, out.resolve(file).toString(), BitmapEncoder.BitmapFormat.PNG);
    return file;
  }
}
