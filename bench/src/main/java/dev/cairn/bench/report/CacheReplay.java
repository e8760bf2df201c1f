package dev.cairn.bench.report;

import dev.cairn.bench.cli.CommandFlags;
import dev.cairn.bench.cli.UsageException;
import dev.cairn.cache.BlockCacheTraceReplay;
import dev.cairn.cache.BlockCacheTraceReplay.Result;
import dev.cairn.cache.BlockCacheTraceReplay.Span;
import dev.cairn.cache.BlockCacheTraceReplay.Written;
import dev.cairn.cache.EvictionPolicy;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * {@code cache-replay --trace FILE [--cache-mb A,B,...] [--from FRACTION]}: what each block cache
 * policy would have kept of the reads a block cache trace recorded ({@code --cache-trace}, or
 * {@code Cairn.startBlockCacheTrace}), at each capacity, with the blocks cached as they were
 * written left out, cached as written (what Cairn does), and cached as reads. A markdown table of
 * hit ratios over every lookup and over those from {@code FRACTION} of the way from the first
 * lookup to the trace's end (default 0.5: the cache's filling left out).
 */
public final class CacheReplay {
  private CacheReplay() {}

  public static String run(String[] args) throws IOException {
    Map<String, String> values = CommandFlags.parse("cache-replay", args, List.of("--trace", "--cache-mb", "--from"));
    if (!values.containsKey("--trace")) {
      throw new UsageException("cache-replay needs --trace FILE (a block cache trace: compare --cache-trace)");
    }
    Path trace = Path.of(values.get("--trace"));
    if (!Files.isRegularFile(trace)) {
      throw new UsageException("--trace " + trace + " is not a file");
    }
    List<Long> capacities = capacities(values.getOrDefault("--cache-mb", "128"));
    double from = fraction(values.getOrDefault("--from", "0.5"));
    return render(trace, capacities, from);
  }

  static String render(Path trace, List<Long> capacitiesMib, double from) throws IOException {
    Span span = BlockCacheTraceReplay.span(trace);
    long measuredFrom = span.at(from);
    StringBuilder out = new StringBuilder();
    out.append(String.format(Locale.ROOT, "Block cache trace %s: %,d records over %.1f s; measured from %.1f s%n%n",
        trace, span.records(), span.lastNanos() / 1e9, measuredFrom / 1e9));
    out.append("| cache | policy | written blocks | hit ratio, measured | hit ratio, whole trace | lookups measured | window at the end |\n");
    out.append("|---|---|---|---|---|---|---|\n");
    for (long mib : capacitiesMib) {
      for (EvictionPolicy policy : EvictionPolicy.values()) {
        for (Written written : Written.values()) {
          if (written == Written.AS_READ && policy != EvictionPolicy.TINY_LFU_CLOCK) {
            continue; // only the clock tells a written block from a read one
          }
          Result r = BlockCacheTraceReplay.replay(trace, policy, mib << 20, written, measuredFrom);
          out.append(String.format(Locale.ROOT, "| %d MiB | %s | %s | %.4f | %.4f | %,d | %s |%n", mib,
              policy.name().toLowerCase(Locale.ROOT), written.name().toLowerCase(Locale.ROOT).replace('_', ' '),
              r.measuredHitRatio(), r.hitRatio(), r.measuredLookups(),
              policy == EvictionPolicy.TINY_LFU_CLOCK ? String.format(Locale.ROOT, "%.1f MB", r.windowBytes() / 1e6) : "-"));
        }
      }
    }
    return out.toString();
  }

  private static List<Long> capacities(String list) {
    List<Long> out = new ArrayList<>();
    for (String part : list.split(",")) {
      try {
        long mib = Long.parseLong(part.trim());
        if (mib <= 0) {
          throw new NumberFormatException();
        }
        out.add(mib);
      } catch (NumberFormatException e) {
        throw new UsageException("--cache-mb takes positive whole MiB, comma-separated; got '" + part + "'");
      }
    }
    return out;
  }

  private static double fraction(String text) {
    try {
      double f = Double.parseDouble(text);
      if (f >= 0 && f < 1) {
        return f;
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    throw new UsageException("--from takes a fraction in [0, 1), got '" + text + "'");
  }
}
