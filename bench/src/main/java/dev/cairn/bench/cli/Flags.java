package dev.cairn.bench.cli;

import dev.cairn.bench.RunConfig;
import dev.cairn.bench.engine.Engines;
import dev.cairn.config.Compression;
import dev.cairn.bench.workload.Keys;
import dev.cairn.bench.workload.Workloads;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Parses the flags of {@code run} and {@code compare} ({@code --name value} or
 * {@code --name=value}). Every mistake is a {@link UsageException} that lists the valid choices.
 */
public final class Flags {
  /** What {@code compare} runs without {@code --engines} (docs/benchmarks.md says the same). */
  static final String DEFAULT_ENGINES = "cairn-buffer,cairn-table,rocksdb,leveldb";
  /** Flag name to its one-line help, in the order usage prints them. */
  public static final Map<String, String> HELP = new LinkedHashMap<>();
  static final List<String> BOOLEAN_FLAGS = List.of("--direct-io", "--keep-data", "--engine-defaults",
      "--same-jvm", "--cache-trace", "--settle");
  /** What a forked run of one (engine, workload) does not inherit from its parent's command line. */
  private static double compressionRatio(Map<String, String> values) {
    String v = values.get("--compression-ratio");
    if (v == null) {
      return 1.0;
    }
    double r;
    try {
      r = Double.parseDouble(v);
    } catch (NumberFormatException e) {
      throw new UsageException("--compression-ratio takes a number in (0, 1], got '" + v + "'");
    }
    if (!(r > 0 && r <= 1)) {
      throw new UsageException("--compression-ratio must lie in (0, 1], got " + v);
    }
    return r;
  }

  private static Compression compression(Map<String, String> values) {
    try {
      return Compression.parse(values.getOrDefault("--compression", "none"));
    } catch (IllegalArgumentException e) {
      throw new UsageException("--compression: " + e.getMessage());
    }
  }

  private static final List<String> NOT_FOR_ONE_RUN =
      List.of("--engine", "--engines", "--workload", "--workloads", "--same-jvm", "--repeat");
  /** The level shape the runner otherwise gives every engine; --engine-defaults leaves it to each. */
  private static final List<String> LEVEL_SHAPE_FLAGS = List.of("--l1-mb", "--level-ratio", "--file-mb");

  static {
    HELP.put("--engine", "engine of a run: " + String.join(", ", Engines.names()));
    HELP.put("--engines", "compare: comma-separated engines (default " + DEFAULT_ENGINES + ")");
    HELP.put("--workload", "workload of a run: " + String.join(", ", Workloads.names()));
    HELP.put("--workloads", "compare: comma-separated workloads (default rangehot,readonly-rangehot)");
    HELP.put("--out", "output directory (required)");
    HELP.put("--repeat", "compare: rounds of the whole comparison (default 1); round N runs the engines in a balanced"
        + " order (round 1 in the listed one) into OUT/round-N, and OUT/series.md gives each figure's median over the rounds");
    HELP.put("--records", "records loaded (default 204800 = 200 MiB of 1 KiB values)");
    HELP.put("--seconds", "measured seconds per (engine, workload) (default 100)");
    HELP.put("--cache-mb", "block cache MiB (default 30% of the data: 60 MiB at the default records)");
    HELP.put("--memtable-mb", "memtable MiB (default 1)");
    HELP.put("--value-bytes", "value size (default 1024)");
    HELP.put("--key-bytes", "key size: record ids as zero-padded digits (default 16, at most 64; BlockDB's runs use 32)");
    HELP.put("--compression-ratio", "how much of each value a compressor finds new, as db_bench's --compression_ratio:"
        + " values of random printable runs repeated (default 1 = random bytes, incompressible)");
    HELP.put("--compression", "none, lz4, zstd or zstd:LEVEL: the block codec of every engine that has it, at every"
        + " level (LevelDB: Snappy; default none)");
    HELP.put("--write-rate", "paced writer's updates/s (default 1000)");
    HELP.put("--readers", "reader/client threads (default 2)");
    HELP.put("--direct-io", "read tables with O_DIRECT where the engine can");
    HELP.put("--seed", "seed of every generator (default 42)");
    HELP.put("--l1-mb", "L1 MiB (default 10)");
    HELP.put("--level-ratio", "level size ratio (default 10)");
    HELP.put("--file-mb", "compaction output table MiB (default 2)");
    HELP.put("--engine-defaults", "every engine keeps its own level sizes, table sizes and level sizing; only the budgets"
        + " (cache, memtable, block size, Bloom bits, no compression) are shared");
    HELP.put("--background-threads", "flush and compaction threads of Cairn (backgroundThreads) and RocksDB"
        + " (max_background_jobs); default 0 = each engine's own (both 2)");
    HELP.put("--hot-percent", "hot range, percent of keys (default 15)");
    HELP.put("--hot-read-percent", "percent of reads in the hot range (default 98)");
    HELP.put("--scale", "periodic: phase length factor on DLC's 500 s high / 100 s low (default 0.1)");
    HELP.put("--high-ops", "periodic: offered ops/s in high phases (default 3000)");
    HELP.put("--low-ops", "periodic: offered ops/s in low phases (default 300)");
    HELP.put("--data-dir", "where databases are created (default OUT/data)");
    HELP.put("--keep-data", "keep the databases after each run");
    HELP.put("--cache-trace", "Cairn engines record a block cache trace of each run into the data directory, beside its"
        + " statistics (the last round's is kept), for cache-replay");
    HELP.put("--device-read-iops", "a real slow device for every engine: each run's process (and any node it starts) in a"
        + " block-I/O control group capped at N reads/s from the data's device; turns on --direct-io and drops the page"
        + " cache before each measured phase (default 0 = off; needs root and a blkio or io controller)");
    HELP.put("--seek-delay-ms", "simulated slow device for Cairn-only experiments: ms added to each non-sequential table"
        + " read (default 0 = off; other engines report it unhonoured)");
    HELP.put("--settle", "after the measured phase's workers stop, wait until the engine owes no compaction (sampled"
        + " every second, at most 4 hours): write amplification of a settled tree, seconds to it");
    HELP.put("--mixed-seconds", "after the measured phase: seconds of 50% uniform reads / 50% uniform updates (default 0 = off)");
    HELP.put("--read-seconds", "after that: seconds of point reads of uniform keys (default 0 = off)");
    HELP.put("--scan-seconds", "after that: seconds of scans of 1-100 records from uniform starts (default 0 = off)");
    HELP.put("--ycsb-mix-seconds", "after that: seconds of each of BlockDB's mixes, 80%, 50%, 20% and 0% uniform"
        + " updates, the rest half point reads, half scans of 1-100 records, Zipfian 0.9 (default 0 = off)");
    HELP.put("--same-jvm", "run every (engine, workload) in this JVM instead of a fresh JVM each (the default, so that"
        + " no run inherits another's JIT warm-up, heap or code profiles; use it to profile a run with an agent)");
    HELP.put("--node-page-cache-mb", "Cassandra and HBase engines: page cache the node may hold beyond its JVM's memory (default 64)");
  }

  private Flags() {}

  /** Parses {@code args} (after the command word); {@code compare} allows several engines. */
  public static Invocation parse(String command, String[] args) {
    Map<String, String> values = collect(args);
    boolean compare = command.equals("compare");
    rejectFlag(values, compare ? "--engine" : "--engines", compare);
    rejectFlag(values, compare ? "--workload" : "--workloads", compare);
    if (!compare && values.containsKey("--repeat")) {
      throw new UsageException("flag --repeat belongs to compare");
    }

    List<String> engines;
    List<String> workloads;
    if (compare) {
      engines = list(values.getOrDefault("--engines", DEFAULT_ENGINES));
      workloads = list(values.getOrDefault("--workloads", "rangehot,readonly-rangehot"));
    } else {
      engines = List.of(required(values, "--engine"));
      workloads = List.of(required(values, "--workload"));
    }
    for (String e : engines) {
      if (!Engines.exists(e)) {
        throw new UsageException("unknown engine '" + e + "'; valid engines: " + String.join(", ", Engines.names()));
      }
    }
    for (String w : workloads) {
      if (!Workloads.exists(w)) {
        throw new UsageException(
            "unknown workload '" + w + "'; valid workloads: " + String.join(", ", Workloads.names()));
      }
    }
    Path out = Path.of(required(values, "--out"));
    boolean engineDefaults = values.containsKey("--engine-defaults");
    for (String shape : LEVEL_SHAPE_FLAGS) {
      if (engineDefaults && values.containsKey(shape)) {
        throw new UsageException("flag " + shape + " sets the level shape that --engine-defaults leaves to each engine");
      }
    }

    int deviceReadIops = (int) CommandFlags.rangeLong(values, "--device-read-iops", 0, 0, 10_000_000);
    if (deviceReadIops > 0 && values.containsKey("--same-jvm")) {
      throw new UsageException("--device-read-iops caps each run's own process, and --same-jvm runs every engine in"
          + " this one: drop --same-jvm");
    }
    long records = positiveLong(values, "--records", RunConfig.DEFAULT_RECORDS);
    int valueBytes = (int) CommandFlags.rangeLong(values, "--value-bytes", 1024, 1, 1 << 20);
    int keyBytes = (int) CommandFlags.rangeLong(values, "--key-bytes", Keys.KEY_BYTES, Keys.KEY_BYTES,
        Keys.MAX_KEY_BYTES);
    long cacheBytes = values.containsKey("--cache-mb")
        ? mib(values, "--cache-mb", 0)
        : RunConfig.defaultCacheBytes(records, keyBytes, valueBytes);
    RunConfig config = new RunConfig(
        records,
        positiveDouble(values, "--seconds", RunConfig.DEFAULT_SECONDS),
        cacheBytes,
        mib(values, "--memtable-mb", 1),
        valueBytes,
        positiveDouble(values, "--write-rate", 1000),
        (int) CommandFlags.rangeLong(values, "--readers", 2, 1, 256),
        values.containsKey("--direct-io") || deviceReadIops > 0,
        CommandFlags.longValue(values, "--seed", 42),
        mib(values, "--l1-mb", 10),
        (int) CommandFlags.rangeLong(values, "--level-ratio", 10, 2, 1000),
        mib(values, "--file-mb", 2),
        percent(values, "--hot-percent", 15),
        percent(values, "--hot-read-percent", 98),
        positiveDouble(values, "--scale", 0.1),
        positiveDouble(values, "--high-ops", 3000),
        positiveDouble(values, "--low-ops", 300),
        values.containsKey("--data-dir") ? Path.of(values.get("--data-dir")) : out.resolve("data"),
        values.containsKey("--keep-data"),
        nonNegative(values, "--seek-delay-ms", 0),
        nonNegative(values, "--mixed-seconds", 0),
        nonNegative(values, "--scan-seconds", 0),
        mib(values, "--node-page-cache-mb", 64),
        engineDefaults,
        (int) CommandFlags.rangeLong(values, "--background-threads", 0, 0, 64),
        deviceReadIops,
        values.containsKey("--cache-trace"),
        compressionRatio(values),
        compression(values),
        keyBytes,
        nonNegative(values, "--read-seconds", 0),
        values.containsKey("--settle"),
        nonNegative(values, "--ycsb-mix-seconds", 0));
    int rounds = (int) CommandFlags.rangeLong(values, "--repeat", 1, 1, 100);
    if (rounds > 1 && engines.stream().noneMatch(e -> Engines.controlOf(e).filter(engines::contains).isPresent())) {
      throw new UsageException("a series (--repeat " + rounds + ") needs an A/A control to tell its ratios from noise:"
          + " list cairn-table and cairn-table-same among --engines");
    }
    return new Invocation(engines, workloads, out, config, values.containsKey("--same-jvm"), rounds);
  }

  /**
   * The flags of a {@code run} of one (engine, workload) of the command line {@code args}: every
   * flag but the engine and workload choices and {@code --same-jvm}, which a forked run does not
   * need, so that the run sees exactly the configuration its parent parsed.
   */
  public static List<String> forOneRun(String[] args, String engine, String workload) {
    List<String> kept = new ArrayList<>(List.of("--engine", engine, "--workload", workload));
    Map<String, String> values = collect(args);
    for (Map.Entry<String, String> e : values.entrySet()) {
      String name = e.getKey();
      if (!NOT_FOR_ONE_RUN.contains(name)) {
        kept.add(BOOLEAN_FLAGS.contains(name) ? name : name + "=" + e.getValue());
      }
    }
    return kept;
  }

  private static Map<String, String> collect(String[] args) {
    Map<String, String> values = new LinkedHashMap<>();
    for (int i = 0; i < args.length; i++) {
      String arg = args[i];
      String name = arg;
      String value = null;
      int eq = arg.indexOf('=');
      if (arg.startsWith("--") && eq > 0) {
        name = arg.substring(0, eq);
        value = arg.substring(eq + 1);
      }
      if (!HELP.containsKey(name)) {
        throw new UsageException("unknown flag '" + arg + "'; valid flags: " + String.join(" ", HELP.keySet()));
      }
      if (BOOLEAN_FLAGS.contains(name)) {
        if (value != null) {
          throw new UsageException("flag " + name + " takes no value");
        }
        value = "true";
      } else if (value == null) {
        if (i + 1 >= args.length) {
          throw new UsageException("flag " + name + " needs a value");
        }
        value = args[++i];
      }
      if (values.put(name, value) != null) {
        throw new UsageException("flag " + name + " given twice");
      }
    }
    return values;
  }

  private static void rejectFlag(Map<String, String> values, String flag, boolean compare) {
    if (values.containsKey(flag)) {
      throw new UsageException("flag " + flag + " belongs to " + (compare ? "run" : "compare")
          + "; use " + (compare ? flag + "s" : flag.substring(0, flag.length() - 1)) + " here");
    }
  }

  private static String required(Map<String, String> values, String flag) {
    String v = values.get(flag);
    if (v == null || v.isBlank()) {
      throw new UsageException("missing " + flag + " (" + HELP.get(flag) + ")");
    }
    return v;
  }

  private static List<String> list(String csv) {
    List<String> items = new ArrayList<>();
    for (String s : Arrays.asList(csv.split(","))) {
      if (!s.isBlank() && !items.contains(s.trim())) {
        items.add(s.trim());
      }
    }
    if (items.isEmpty()) {
      throw new UsageException("empty list '" + csv + "'");
    }
    return items;
  }

  private static long positiveLong(Map<String, String> values, String flag, long dflt) {
    return CommandFlags.rangeLong(values, flag, dflt, 1, Long.MAX_VALUE);
  }

  private static double doubleValue(Map<String, String> values, String flag, double dflt) {
    String v = values.get(flag);
    if (v == null) {
      return dflt;
    }
    try {
      double d = Double.parseDouble(v);
      if (!Double.isFinite(d)) {
        throw new NumberFormatException();
      }
      return d;
    } catch (NumberFormatException e) {
      throw new UsageException("flag " + flag + " needs a number, got '" + v + "'");
    }
  }

  private static double positiveDouble(Map<String, String> values, String flag, double dflt) {
    double d = doubleValue(values, flag, dflt);
    if (d <= 0) {
      throw new UsageException("flag " + flag + " must be positive, got " + d);
    }
    return d;
  }

  private static double nonNegative(Map<String, String> values, String flag, double dflt) {
    double d = doubleValue(values, flag, dflt);
    if (d < 0) {
      throw new UsageException("flag " + flag + " must not be negative, got " + d);
    }
    return d;
  }

  private static double percent(Map<String, String> values, String flag, double dflt) {
    double d = doubleValue(values, flag, dflt);
    if (d <= 0 || d > 100) {
      throw new UsageException("flag " + flag + " must be in (0, 100], got " + d);
    }
    return d / 100;
  }

  /** A MiB flag in bytes; fractions allowed (0.25 = 256 KiB). */
  private static long mib(Map<String, String> values, String flag, double dfltMib) {
    double d = doubleValue(values, flag, dfltMib);
    if (d < 0) {
      throw new UsageException("flag " + flag + " must not be negative, got " + d);
    }
    return Math.round(d * RunConfig.MIB);
  }
}
