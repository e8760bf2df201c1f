package dev.cairn.bench.report;

import dev.cairn.bench.run.FollowUp;
import dev.cairn.bench.run.MixFigures;
import dev.cairn.bench.run.RunResult;
import dev.cairn.bench.run.Sample;
import dev.cairn.bench.workload.BlockDbMix;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * Writes the runner's output contract (docs/benchmarks.md, "Output contract") into {@code --out}: timeseries.csv, summary.json,
 * report.md and the PNG plots. Column and field names are a contract other tools read; add at
 * the end, never rename.
 */
public final class Outputs {
  public static final List<String> CSV_COLUMNS = List.of("elapsed_s", "engine", "workload", "reads_per_s",
      "writes_per_s", "scans_per_s", "hit_ratio", "read_p50_us", "read_p99_us", "write_p99_us",
      "compaction_bytes_written", "db_bytes", "l0_files", "load_class", "buffer_bytes");
  public static final List<String> SUMMARY_FIELDS = List.of("engine", "workload", "read_ops_per_s",
      "write_ops_per_s", "scan_ops_per_s", "hit_ratio_mean", "hit_ratio_min", "hit_ratio_max", "read_p99_us",
      "write_amplification", "space_amplification", "device_bytes_written", "run_seconds", "config");

  private Outputs() {}

  /** Everything: the data files, the plots and the report. */
  public static void writeAll(Path out, List<RunResult> results) throws IOException {
    writeData(out, results);
    List<String> plots = Plots.writeAll(out, results);
    Files.writeString(out.resolve("report.md"), MarkdownReport.render(results, plots));
  }

  /** timeseries.csv and summary.json only (cheap; the plots are drawn once at the end). */
  public static void writeData(Path out, List<RunResult> results) throws IOException {
    Files.createDirectories(out);
    writeCsv(out.resolve("timeseries.csv"), results);
    Files.writeString(out.resolve("summary.json"), Json.write(summary(results)));
  }

  static void writeCsv(Path file, List<RunResult> results) throws IOException {
    StringBuilder sb = new StringBuilder(String.join(",", CSV_COLUMNS)).append('\n');
    for (RunResult r : results) {
      for (Sample s : r.samples()) {
        sb.append(String.join(",", List.of(
            num(s.elapsedSeconds()), s.engine(), s.workload(), num(s.readsPerSecond()), num(s.writesPerSecond()),
            num(s.scansPerSecond()), num(s.hitRatio()), num(s.readP50Micros()), num(s.readP99Micros()),
            num(s.writeP99Micros()), num(s.compactionBytesWritten()), Long.toString(s.dbBytes()),
            s.l0Files() < 0 ? "" : Integer.toString(s.l0Files()), s.loadClass(), num(s.bufferBytes()))))
            .append('\n');
      }
    }
    Files.writeString(file, sb);
  }

  /** A CSV cell: empty for NaN (not reported), integers without a fraction. */
  static String num(double d) {
    if (!Double.isFinite(d)) {
      return "";
    }
    return d == Math.rint(d) && Math.abs(d) < 1e15 ? Long.toString((long) d) : String.format(Locale.ROOT, "%.4f", d);
  }

  static List<Object> summary(List<RunResult> results) {
    List<Object> entries = new ArrayList<>();
    for (RunResult r : results) {
      Map<String, Object> e = new LinkedHashMap<>();
      e.put("engine", r.engine());
      e.put("workload", r.workload());
      e.put("read_ops_per_s", r.readOpsPerSecond());
      e.put("write_ops_per_s", r.writeOpsPerSecond());
      e.put("scan_ops_per_s", r.scanOpsPerSecond());
      e.put("hit_ratio_mean", r.hitRatioMean());
      e.put("hit_ratio_min", r.hitRatioMin());
      e.put("hit_ratio_max", r.hitRatioMax());
      e.put("read_p99_us", r.readP99Micros());
      e.put("write_amplification", r.writeAmplification());
      e.put("space_amplification", r.spaceAmplification());
      e.put("device_bytes_written", r.deviceBytesWritten());
      e.put("run_seconds", r.runSeconds());
      e.put("config", r.config());
      // Beyond the contract's minimum:
      e.put("status", r.ok() ? "ok" : "failed");
      e.put("error", r.error());
      e.put("read_p50_us", r.readP50Micros());
      e.put("write_p99_us", r.writeP99Micros());
      e.put("user_bytes_written", r.userBytesWritten());
      e.put("compaction_bytes_written", r.compactionBytesWritten());
      e.put("db_bytes", r.dbBytes());
      e.put("stall_micros", r.stallMicros());
      e.put("load_average_mean", r.loadAverageMean());
      e.put("load_phase_seconds", r.loadSeconds());
      e.put("unhonoured_settings", r.unhonouredSettings());
      e.put("high_phase_read_p99_us", r.highPhaseReadP99Micros());
      e.put("high_phase_ops_per_s", r.highPhaseOpsPerSecond());
      e.put("high_phase_drops", r.highPhaseDrops());
      e.put("later_high_phase_read_p99_us", r.laterHighPhaseReadP99Micros());
      // Issues 4 and 5 (docs/benchmarks.md, "Compaction-style figures"):
      e.put("space_amplification_peak", r.spaceAmplificationPeak());
      e.put("write_amplification_by_level",
          r.writeAmplificationByLevel().isEmpty() ? null : r.writeAmplificationByLevel());
      e.put("mixed_cache_misses", r.followUp().mixedCacheMisses());
      e.put("mixed_hit_ratio", r.followUp().mixedHitRatio());
      e.put("mixed_reads_per_s", r.followUp().mixedReadsPerSecond());
      e.put("mixed_writes_per_s", r.followUp().mixedWritesPerSecond());
      e.put("scan_after_ops_per_s", r.followUp().scanOpsPerSecond());
      e.put("read_after_ops_per_s", r.followUp().readOpsPerSecond());
      e.put("read_after_hit_ratio", r.followUp().readHitRatio());
      e.put("buffer_bytes_mean", r.bufferBytesMean());
      e.put("buffer_bytes_max", r.bufferBytesMax());
      e.put("simulated_seeks", r.simulatedSeeks());
      e.put("mixed_simulated_seeks", r.followUp().mixedSimulatedSeeks());
      e.put("block_cache_misses", r.blockCacheMisses());
      e.put("device_reads", r.deviceReads());
      e.put("settle_seconds", r.settleSeconds());
      e.putAll(mixFigures(r.followUp()));
      entries.add(e);
    }
    return entries;
  }

  /**
   * BlockDB's mixes' figures as summary.json keys them, {@code mix_<mix>_ops_per_s},
   * {@code mix_<mix>_write_amplification} and {@code mix_<mix>_hit_ratio}, NaN for a mix that did
   * not run (and for the read-only mix's write amplification).
   */
  public static Map<String, Double> mixFigures(FollowUp followUp) {
    Map<String, Double> m = new LinkedHashMap<>();
    for (BlockDbMix mix : BlockDbMix.inOrder()) {
      Optional<MixFigures> ran = followUp.mix(mix.key());
      m.put(mix.opsKey(), ran.map(MixFigures::opsPerSecond).orElse(Double.NaN));
      m.put(mix.writeAmplificationKey(), ran.map(MixFigures::writeAmplification).orElse(Double.NaN));
      m.put(mix.hitRatioKey(), ran.map(MixFigures::hitRatio).orElse(Double.NaN));
    }
    return m;
  }
}
