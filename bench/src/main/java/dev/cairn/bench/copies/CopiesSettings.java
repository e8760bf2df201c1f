package dev.cairn.bench.copies;

import dev.cairn.bench.cli.CommandFlags;
import dev.cairn.bench.cli.UsageException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The flags of {@code copies}, each with its default: the full figures an operator asks for take
 * the defaults (a 1 GiB database per compaction style, 20 databases of 200 MiB each, 3 rounds).
 *
 * @param out where report.md and summary.json go
 * @param dataDir where the databases, checkpoints, backups and restores live while measured
 * @param records keys of each compaction style's database (checkpoints and backups)
 * @param valueBytes the size of every value, in every part; keys are 16 bytes
 * @param databases databases opened at once in the many-databases part
 * @param manyRecords keys written into each of those databases
 * @param repeat rounds of the whole measurement
 * @param seed seed of every generator (keys' order, values, the keys overwritten)
 */
record CopiesSettings(Path out, Path dataDir, long records, int valueBytes, int databases, long manyRecords,
    int repeat, long seed) {
  /** The flags in the order usage and docs/benchmarks.md list them. */
  static final List<String> FLAGS = List.of("--out", "--records", "--value-bytes", "--databases", "--many-records",
      "--repeat", "--data-dir", "--seed");

  static CopiesSettings parse(String[] args) {
    Map<String, String> values = CommandFlags.parse("copies", args, FLAGS);
    if (!values.containsKey("--out")) {
      throw new UsageException("copies needs --out DIR (where report.md and summary.json go)");
    }
    Path out = Path.of(values.get("--out"));
    return new CopiesSettings(out,
        values.containsKey("--data-dir") ? Path.of(values.get("--data-dir")) : out.resolve("data"),
        CommandFlags.rangeLong(values, "--records", 1_000_000, 1, 100_000_000),
        (int) CommandFlags.rangeLong(values, "--value-bytes", 1024, 1, 1 << 20),
        (int) CommandFlags.rangeLong(values, "--databases", 20, 1, 1000),
        CommandFlags.rangeLong(values, "--many-records", 200_000, 1, 100_000_000),
        (int) CommandFlags.rangeLong(values, "--repeat", 3, 1, 100),
        CommandFlags.longValue(values, "--seed", 42));
  }

  /** Every setting, for summary.json. */
  Map<String, Object> asMap() {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("records", records);
    m.put("value_bytes", valueBytes);
    m.put("databases", databases);
    m.put("many_records", manyRecords);
    m.put("repeat", repeat);
    m.put("seed", seed);
    m.put("data_dir", dataDir.toString());
    return m;
  }
}
