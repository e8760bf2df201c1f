package dev.cairn.bench.report;

import dev.cairn.bench.engine.Engines;
import dev.cairn.bench.run.RunResult;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.ToDoubleFunction;

/**
 * report.md: the configuration and scale, one table per workload, Cairn/peer ratios, each
 * engine's unhonoured settings, and the plots. Figures an engine cannot report show as "n/a".
 */
final class MarkdownReport {
  private MarkdownReport() {}

  static String render(List<RunResult> results, List<String> plots) {
    StringBuilder sb = new StringBuilder("# Workload runner report\n\n");
    if (!results.isEmpty()) {
      Map<String, Object> config = results.get(0).config();
      sb.append("Scale: LSbM-tree section 6.1 at ").append(config.get("lsbm_6_1_scale"))
          .append(" of its data set (").append(config.get("records")).append(" records of ")
          .append(config.get("value_bytes")).append(" B values, cache ").append(mib(config.get("cache_bytes")))
          .append(", memtable ").append(mib(config.get("memtable_bytes")));
      if (Boolean.TRUE.equals(config.get("engine_defaults"))) {
        sb.append(", each engine at its own level and table sizes (--engine-defaults)");
      } else {
        sb.append(", L1 ").append(mib(config.get("base_level_bytes"))).append(", ratio ")
            .append(config.get("level_size_ratio"));
      }
      sb.append(", ").append(config.get("write_rate")).append(" writes/s); ")
          .append(config.get("seconds")).append(" s measured per run. The machine's two cores are shared: ")
          .append("compare engines within one report, and see the load average column.\n\n");
      sb.append("Configuration: `").append(Json.write(config).replace("\n", " ").replaceAll(" +", " ").trim())
          .append("`\n\n");
    }
    for (String workload : Plots.workloads(results)) {
      sb.append("## ").append(workload).append("\n\n");
      sb.append("| engine | status | reads/s | writes/s | scans/s | hit ratio mean (min-max) | read p50 us | read p99 us"
          + " | write p99 us | write amp | space amp | device MiB written | stall s | load avg |\n");
      sb.append("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n");
      for (RunResult r : results) {
        if (r.workload().equals(workload)) {
          sb.append("| ").append(r.engine()).append(" | ").append(r.ok() ? "ok" : "failed")
              .append(" | ").append(f(r.readOpsPerSecond(), 0)).append(" | ").append(f(r.writeOpsPerSecond(), 0))
              .append(" | ").append(f(r.scanOpsPerSecond(), 0)).append(" | ").append(f(r.hitRatioMean(), 3))
              .append(" (").append(f(r.hitRatioMin(), 3)).append("-").append(f(r.hitRatioMax(), 3)).append(")")
              .append(" | ").append(f(r.readP50Micros(), 1)).append(" | ").append(f(r.readP99Micros(), 1))
              .append(" | ").append(f(r.writeP99Micros(), 1)).append(" | ").append(f(r.writeAmplification(), 2))
              .append(" | ").append(f(r.spaceAmplification(), 2))
              .append(" | ").append(f(r.deviceBytesWritten() / (1 << 20), 1))
              .append(" | ").append(f(r.stallMicros() / 1e6, 2)).append(" | ").append(f(r.loadAverageMean(), 2))
              .append(" |\n");
        }
      }
      sb.append('\n');
      CompactionFigures.render(sb, results, workload);
      ratios(sb, results, workload);
      for (RunResult r : results) {
        if (r.workload().equals(workload) && !r.ok()) {
          sb.append("- ").append(r.engine()).append(" failed: ").append(r.error()).append('\n');
        }
      }
      for (String plot : plots) {
        if (plot.endsWith("_" + workload + ".png")) {
          sb.append("![").append(plot).append("](").append(plot).append(")\n");
        }
      }
      sb.append('\n');
    }
    sb.append("## Write amplification\n\n![write_amplification.png](write_amplification.png)\n\n");
    sb.append("## Settings each engine could not honour\n\n");
    Set<String> seen = new LinkedHashSet<>();
    for (RunResult r : results) {
      if (seen.add(r.engine())) {
        sb.append("- **").append(r.engine()).append("**: ")
            .append(r.unhonouredSettings().isEmpty() ? "all honoured" : String.join("; ", r.unhonouredSettings()))
            .append('\n');
      }
    }
    return sb.toString();
  }

  /** Cairn/peer ratios for every Cairn engine and peer that ran this workload. */
  private static void ratios(StringBuilder sb, List<RunResult> results, String workload) {
    List<RunResult> runs = results.stream().filter(r -> r.workload().equals(workload)).toList();
    List<RunResult> cairns = runs.stream().filter(r -> Engines.isCairn(r.engine())).toList();
    List<RunResult> peers = runs.stream().filter(r -> !Engines.isCairn(r.engine())).toList();
    if (cairns.isEmpty() || peers.isEmpty()) {
      return;
    }
    sb.append("| Cairn / peer | reads/s | hit ratio mean | read p99 | write amp |\n|---|---|---|---|---|\n");
    for (RunResult c : cairns) {
      for (RunResult p : peers) {
        sb.append("| ").append(c.engine()).append(" / ").append(p.engine())
            .append(" | ").append(ratio(c, p, RunResult::readOpsPerSecond))
            .append(" | ").append(ratio(c, p, RunResult::hitRatioMean))
            .append(" | ").append(ratio(c, p, RunResult::readP99Micros))
            .append(" | ").append(ratio(c, p, RunResult::writeAmplification)).append(" |\n");
      }
    }
    sb.append('\n');
  }

  private static String ratio(RunResult cairn, RunResult peer, ToDoubleFunction<RunResult> metric) {
    double c = metric.applyAsDouble(cairn);
    double p = metric.applyAsDouble(peer);
    return cairn.ok() && peer.ok() && p != 0 ? f(c / p, 2) : "n/a";
  }

  static String f(double d, int decimals) {
    return Double.isFinite(d) ? String.format(Locale.ROOT, "%,." + decimals + "f", d) : "n/a";
  }

  private static String mib(Object bytes) {
    return bytes instanceof Number n ? f(n.doubleValue() / (1 << 20), 1) + " MiB" : "?";
  }
}
