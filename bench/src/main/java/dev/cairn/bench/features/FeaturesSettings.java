package dev.cairn.bench.features;

import dev.cairn.bench.cli.CommandFlags;
import dev.cairn.bench.cli.UsageException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The flags of {@code features}, each with its default: the full figures take the defaults
 * (100,000 counters, 2,000,000 increments, 3 rounds, a 64 MiB block cache for every engine).
 *
 * @param out where report.md and summary.json go
 * @param dataDir where the databases live while measured
 * @param counters counter keys (ids {@code 0..counters-1}, 16-byte keys)
 * @param increments increments per phase (the merges, and as many read-modify-writes)
 * @param repeat rounds of every engine
 * @param cacheBytes the block cache of every engine
 * @param seed seed of the increments' keys and deltas, the same for every engine and round
 */
record FeaturesSettings(Path out, Path dataDir, int counters, int increments, int repeat, long cacheBytes,
    long seed) {
  /** The flags in the order usage and docs/benchmarks.md list them. */
  static final List<String> FLAGS = List.of("--out", "--counters", "--increments", "--repeat", "--data-dir",
      "--cache-mb", "--seed");

  static FeaturesSettings parse(String[] args) {
    Map<String, String> values = CommandFlags.parse("features", args, FLAGS);
    if (!values.containsKey("--out")) {
      throw new UsageException("features needs --out DIR (where report.md and summary.json go)");
    }
    Path out = Path.of(values.get("--out"));
    return new FeaturesSettings(out,
        values.containsKey("--data-dir") ? Path.of(values.get("--data-dir")) : out.resolve("data"),
        // Up to 10^7: the harness holds every key, the reference and each read's value in arrays.
        (int) CommandFlags.rangeLong(values, "--counters", 100_000, 1, 10_000_000),
        // Up to 10^8: the increments' keys and deltas are drawn once into arrays (5 bytes each).
        (int) CommandFlags.rangeLong(values, "--increments", 2_000_000, 1, 100_000_000),
        (int) CommandFlags.rangeLong(values, "--repeat", 3, 1, 100),
        CommandFlags.rangeLong(values, "--cache-mb", 64, 1, 1 << 20) << 20,
        CommandFlags.longValue(values, "--seed", 42));
  }

  /** Every setting, for summary.json. */
  Map<String, Object> asMap() {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("counters", counters);
    m.put("increments", increments);
    m.put("repeat", repeat);
    m.put("cache_bytes", cacheBytes);
    m.put("seed", seed);
    m.put("data_dir", dataDir.toString());
    return m;
  }
}
