package dev.cairn.bench.features;

import dev.cairn.bench.cli.CommandFlags;
import dev.cairn.bench.cli.UsageException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The flags of {@code features}, each with its default: the full figures take the defaults (both
 * experiments; 100,000 counters and 2,000,000 increments; 1,000,000 records, 200,000 gets and 2,000
 * scans; 3 rounds, a 64 MiB block cache for every engine).
 *
 * @param out where report.md and summary.json go
 * @param dataDir where the databases live while measured
 * @param experiments the experiments to run, in {@link #EXPERIMENTS}' order
 * @param counters counter keys (ids {@code 0..counters-1}, 16-byte keys)
 * @param increments increments per phase (the merges, and as many read-modify-writes)
 * @param records records the range-delete experiment loads (a tenth of them deleted)
 * @param gets point reads of the range-delete experiment's read-during phase
 * @param scans scans of its read-during phase
 * @param repeat rounds of every engine
 * @param cacheBytes the block cache of every engine
 * @param seed seed of the increments and of the records' values and reads, the same for every
 *     engine and round
 */
record FeaturesSettings(Path out, Path dataDir, List<String> experiments, int counters, int increments, long records,
    int gets, int scans, int repeat, long cacheBytes, long seed) {
  /** Counters as merges against read-modify-writes. */
  static final String COUNTER = "counter";
  /** A tenth of the key space deleted by one range delete against one delete per key. */
  static final String RANGE_DELETE = "range-delete";
  /** Every experiment, in the order a round runs them. */
  static final List<String> EXPERIMENTS = List.of(COUNTER, RANGE_DELETE);

  /** The flags in the order usage and docs/benchmarks.md list them. */
  static final List<String> FLAGS = List.of("--out", "--experiments", "--counters", "--increments", "--records",
      "--gets", "--scans", "--repeat", "--data-dir", "--cache-mb", "--seed");

  FeaturesSettings {
    experiments = List.copyOf(experiments);
  }

  static FeaturesSettings parse(String[] args) {
    Map<String, String> values = CommandFlags.parse("features", args, FLAGS);
    if (!values.containsKey("--out")) {
      throw new UsageException("features needs --out DIR (where report.md and summary.json go)");
    }
    Path out = Path.of(values.get("--out"));
    return new FeaturesSettings(out,
        values.containsKey("--data-dir") ? Path.of(values.get("--data-dir")) : out.resolve("data"),
        experiments(values.get("--experiments")),
        // Up to 10^7: the harness holds every key, the reference and each read's value in arrays.
        (int) CommandFlags.rangeLong(values, "--counters", 100_000, 1, 10_000_000),
        // Up to 10^8: the increments' keys and deltas are drawn once into arrays (5 bytes each).
        (int) CommandFlags.rangeLong(values, "--increments", 2_000_000, 1, 100_000_000),
        // At least 100, so that the deleted tenth holds keys; up to 2 * 10^7, as the per-key
        // deletes' keys (a tenth of the records) are made into an array before they are timed.
        CommandFlags.rangeLong(values, "--records", 1_000_000, 100, 20_000_000),
        // The reads' keys are drawn once into arrays too.
        (int) CommandFlags.rangeLong(values, "--gets", 200_000, 1, 10_000_000),
        (int) CommandFlags.rangeLong(values, "--scans", 2_000, 1, 1_000_000),
        (int) CommandFlags.rangeLong(values, "--repeat", 3, 1, 100),
        CommandFlags.rangeLong(values, "--cache-mb", 64, 1, 1 << 20) << 20,
        CommandFlags.longValue(values, "--seed", 42));
  }

  /** {@code --experiments}' comma-separated names, in {@link #EXPERIMENTS}' order; all when not given. */
  static List<String> experiments(String value) {
    if (value == null) {
      return EXPERIMENTS;
    }
    List<String> named = new ArrayList<>();
    for (String name : value.split(",", -1)) {
      String n = name.trim();
      if (!EXPERIMENTS.contains(n)) {
        throw new UsageException("flag --experiments names '" + n + "', which is no experiment (valid: "
            + String.join(", ", EXPERIMENTS) + ")");
      }
      if (named.contains(n)) {
        throw new UsageException("flag --experiments names " + n + " twice");
      }
      named.add(n);
    }
    return EXPERIMENTS.stream().filter(named::contains).toList();
  }

  boolean runs(String experiment) {
    return experiments.contains(experiment);
  }

  /** Every setting, for summary.json. */
  Map<String, Object> asMap() {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("experiments", experiments);
    m.put("counters", counters);
    m.put("increments", increments);
    m.put("records", records);
    m.put("gets", gets);
    m.put("scans", scans);
    m.put("repeat", repeat);
    m.put("cache_bytes", cacheBytes);
    m.put("seed", seed);
    m.put("data_dir", dataDir.toString());
    return m;
  }
}
