package dev.cairn.bench.features;

import dev.cairn.bench.copies.Machine;
import dev.cairn.bench.engine.EngineMetrics;
import dev.cairn.bench.report.SeriesAnalysis.Band;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.ToDoubleFunction;

/**
 * report.md and summary.json of {@code features}. report.md: the command line, the machine and the
 * engines' order, then a section per experiment run. The counters': each engine's rates as median
 * [smallest-largest] over the rounds, each engine's ratio to {@code cairn} with its verdict against
 * the A/A band ({@link RatioBands}), then bytes written and database sizes; the range deletes' are
 * {@link RangeDeleteReport}'s. summary.json: every round's raw figures.
 */
final class FeaturesReport {
  private static final double MIB = 1 << 20;
  static final String COUNTER_TITLE = "Counters: merge against read-modify-write";

  /** A column of the bytes table: its header and the figure from one engine's round. */
  private record Column(String header, ToDoubleFunction<EngineFigures> value) {}

  private static final List<Column> BYTES = List.of(
      new Column("merge MiB written", f -> mib(f.merge().bytesWritten())),
      new Column("read-after-merge MiB written", f -> mib(f.readAfterMerge().bytesWritten())),
      new Column("rmw MiB written", f -> mib(f.rmw().bytesWritten())),
      new Column("merge database MiB", f -> mib(f.mergeDatabaseBytes())),
      new Column("rmw database MiB", f -> mib(f.rmwDatabaseBytes())),
      new Column("merge close s", EngineFigures::mergeCloseSeconds),
      new Column("rmw close s", EngineFigures::rmwCloseSeconds));

  private FeaturesReport() {}

  static String markdown(String command, Machine machine, FeaturesSettings s, int countersReached,
      List<FeaturesRound> rounds) {
    // The command first, so that the report's first line is what runs it again.
    StringBuilder sb = new StringBuilder("Command: `").append(command).append("`\n\n");
    List<String> titles = new ArrayList<>();
    if (s.runs(FeaturesSettings.COUNTER)) {
      titles.add(COUNTER_TITLE);
    }
    if (s.runs(FeaturesSettings.RANGE_DELETE)) {
      titles.add(RangeDeleteReport.TITLE);
    }
    sb.append("# Features: ").append(String.join("; ", titles)).append("\n\n");
    sb.append(machine.markdown()).append("\n\n");
    sb.append(rounds.size() == 1 ? "One round." : "Each figure is the median [smallest-largest] over "
        + rounds.size() + " rounds.").append(" Every round's figures are in summary.json.\n\n");
    order(sb, s, rounds);
    if (s.runs(FeaturesSettings.COUNTER)) {
      sb.append("## ").append(COUNTER_TITLE).append("\n\n");
      settings(sb, s, countersReached);
      rates(sb, rounds);
      againstCairn(sb, rounds);
      bytes(sb, rounds);
    }
    if (s.runs(FeaturesSettings.RANGE_DELETE)) {
      RangeDeleteReport.markdown(sb, s, rounds);
    }
    return sb.toString();
  }

  /** The engines' order, round by round, which both experiments share. */
  private static void order(StringBuilder sb, FeaturesSettings s, List<FeaturesRound> rounds) {
    sb.append("Each round runs ").append(s.experiments().size() == 1 ? "the experiment" : "the experiments in turn ("
        + String.join(", then ", s.experiments()) + ")").append(", each on every engine with the engines rotated one "
        + "further than the round before (round r from 0 starts at engine r mod ")
        .append(CounterEngines.NAMES.size()).append("): ");
    List<String> orders = new ArrayList<>();
    for (FeaturesRound r : rounds) {
      orders.add("round " + r.round() + " " + String.join(", ", CounterEngines.order(r.round() - 1)));
    }
    sb.append(String.join("; ", orders)).append(". All rounds run in one JVM: the first engine of round 1 "
        + "runs with the JIT cold, and each later one on code the earlier ones warmed.\n\n");
  }

  private static void settings(StringBuilder sb, FeaturesSettings s, int countersReached) {
    sb.append("### What ran\n\n").append(String.format(Locale.ROOT, "%,d counters (16-byte keys, 8-byte "
        + "little-endian values), %,d increments, one thread. Each increment adds a delta uniform in [1, %d] to a "
        + "counter drawn from a scrambled Zipfian over the counters (theta 0.99, seed %d; %,d counters reached), "
        + "the same sequence for every engine and round. Per engine and round: *merge*, every increment as "
        + "`merge(key, encode(delta))` into a fresh database; *read-after-merge*, every counter read once with "
        + "`get` in key order right after, so that reads merge the operands compactions have not; *rmw*, every "
        + "increment as `get`, add, `put` into a second fresh database. Both databases are checked against the "
        + "harness's reference for every counter (a mismatch fails the command). Writes are not synced; a "
        + "`System.gc()` runs before each engine. Every engine has a %d MiB block cache.%n%n",
        s.counters(), s.increments(), CounterWorkload.MAX_DELTA, s.seed(), countersReached, s.cacheBytes() >> 20));
    sb.append("- `cairn`: `Options.builder().mergeOperator(MergeOperator.counter()).blockCacheBytes(cache)`, "
        + "otherwise Cairn's defaults.\n");
    sb.append("- `cairn-aa`: the same configuration under a second name, the A/A control.\n");
    sb.append("- `rocksdb`: rocksdbjni at RocksDB's defaults but for an LRU block cache of the same size and "
        + "`setMergeOperatorName(\"uint64add\")` (fixed64 little-endian, the encoding of `CounterOperator`). "
        + "Its defaults compress blocks (LZ4 in rocksdbjni 11.8.1) and keep no Bloom filter; Cairn's compress "
        + "nothing and keep a 10-bit filter.\n");
    sb.append("- `rocksdb-best`: the runner's `rocksdb-best` column family options (flushed and compacted blocks "
        + "put in the cache, obsolete files' entries erased, index and filter blocks cached at high priority "
        + "with level 0's pinned, a 10-bit Bloom filter, the LRU cache with a high-priority pool) with RocksDB's own "
        + "write buffer, block size, level sizes and codec, plus `uint64add`.\n\n");
  }

  private static void rates(StringBuilder sb, List<FeaturesRound> rounds) {
    sb.append("### Rates\n\n| engine");
    for (Phase p : Phase.values()) {
      sb.append(" | ").append(p.label()).append(' ').append(p.unit());
    }
    sb.append(" | merge / rmw |\n|---").append("|---".repeat(Phase.values().length + 1)).append("|\n");
    for (String engine : CounterEngines.NAMES) {
      sb.append("| ").append(engine);
      for (Phase p : Phase.values()) {
        sb.append(" | ").append(render(RatioBands.rates(rounds, p, engine), 0));
      }
      double[] mergeOverRmw = rounds.stream().flatMap(r -> r.of(engine).stream())
          .mapToDouble(f -> f.merge().rate() / f.rmw().rate()).toArray();
      sb.append(" | ").append(render(mergeOverRmw, 2)).append(" |\n");
    }
    sb.append("\n*merge / rmw*: the engine's merge rate over its own read-modify-write rate in the same round: "
        + "what merging buys an increment on that engine.\n\n");
  }

  private static void againstCairn(StringBuilder sb, List<FeaturesRound> rounds) {
    sb.append("### Against cairn\n\nEach engine's rate over `cairn`'s in the same round, median [smallest-largest] "
        + "over the rounds. The A/A band is `cairn-aa` over `cairn`: ");
    List<String> bands = new ArrayList<>();
    for (Phase p : Phase.values()) {
      bands.add(p.label() + " " + RatioBands.aaBand(rounds, p).map(b -> b.render(3) + " (noise range "
          + String.format(Locale.ROOT, "%.3f-%.3f", b.noiseRange().min(), b.noiseRange().max()) + ")")
          .orElse("n/a"));
    }
    sb.append(String.join("; ", bands)).append(". A ratio whose band overlaps the noise range (the A/A band "
        + "widened by its reciprocals, since either twin could be called the control) is *no difference*; "
        + "otherwise the engine with the higher rate is named faster.");
    if (rounds.size() < 3) {
      sb.append(" With ").append(rounds.size() == 1 ? "one round" : rounds.size() + " rounds")
          .append(" the bands are too narrow to trust: a verdict needs several rounds.");
    }
    sb.append("\n\n| engine | phase | ratio to cairn | verdict |\n|---|---|---|---|\n");
    List<RatioBands.Comparison> comparisons = RatioBands.comparisons(rounds);
    for (RatioBands.Comparison c : comparisons) {
      sb.append("| ").append(c.engine()).append(" | ").append(c.phase().label()).append(" | ")
          .append(c.ratio().render(3)).append(" | ").append(c.verdict()).append(" |\n");
    }
    sb.append('\n');
    for (RatioBands.Comparison c : comparisons) {
      sb.append("- ").append(sentence(c)).append('\n');
    }
    sb.append('\n');
  }

  /** A comparison in words, Cairn's losses said as plainly as its wins. */
  static String sentence(RatioBands.Comparison c) {
    double m = c.ratio().median();
    String phase = c.phase().label();
    if (c.verdict().equals(RatioBands.NO_DIFFERENCE)) {
      return String.format(Locale.ROOT, "%s: %s and cairn show no difference beyond the A/A band (%s at %.2fx "
          + "cairn's rate).", phase, c.engine(), c.engine(), m);
    }
    if (c.verdict().equals(c.engine() + " faster")) {
      return String.format(Locale.ROOT, "%s: %s is faster than cairn, %.2fx cairn's rate (cairn at %.0f%% of %s's).",
          phase, c.engine(), m, 100 / m, c.engine());
    }
    return String.format(Locale.ROOT, "%s: cairn is faster than %s, %.2fx its rate (%s at %.0f%% of cairn's).",
        phase, c.engine(), 1 / m, c.engine(), 100 * m);
  }

  private static void bytes(StringBuilder sb, List<FeaturesRound> rounds) {
    sb.append("### Bytes written and database sizes\n\nMiB written: the process's `write_bytes` less "
        + "`cancelled_write_bytes` from `/proc/self/io` over each phase (the engine's log, flushes and compactions; "
        + "compactions the merges left may still run during the reads). Database MiB: the directory after its "
        + "last phase, before the close. Close s: the close's wall time, where work an engine defers shows.\n\n");
    sb.append("| engine");
    BYTES.forEach(c -> sb.append(" | ").append(c.header()));
    sb.append(" |\n|---").append("|---".repeat(BYTES.size())).append("|\n");
    for (String engine : CounterEngines.NAMES) {
      sb.append("| ").append(engine);
      List<EngineFigures> figures = rounds.stream().flatMap(r -> r.of(engine).stream()).toList();
      for (Column c : BYTES) {
        sb.append(" | ").append(render(figures.stream().mapToDouble(c.value()).toArray(), c.header().endsWith(" s")
            ? 2 : 1));
      }
      sb.append(" |\n");
    }
    sb.append('\n');
  }

  static Map<String, Object> json(String command, Machine machine, FeaturesSettings s, int countersReached,
      List<FeaturesRound> rounds) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("command", command);
    m.put("machine", machine.toJson());
    Map<String, Object> settings = s.asMap();
    if (s.runs(FeaturesSettings.COUNTER)) {
      settings.put("counters_reached", countersReached);
    }
    m.put("settings", settings);
    m.put("engines", CounterEngines.NAMES);
    m.put("range_methods", Arrays.stream(RangeMethod.values()).map(RangeMethod::label).toList());
    m.put("rounds", rounds.stream().map(FeaturesRound::toJson).toList());
    return m;
  }

  private static String render(double[] values, int decimals) {
    return Band.of(values).map(b -> b.render(decimals)).orElse("n/a");
  }

  /** Bytes as MiB; an unavailable count as NaN, which {@link Band#of} leaves out. */
  private static double mib(long bytes) {
    return bytes == EngineMetrics.UNAVAILABLE ? Double.NaN : bytes / MIB;
  }
}
