package dev.cairn.bench.features;

import dev.cairn.bench.engine.EngineMetrics;
import dev.cairn.bench.report.SeriesAnalysis.Band;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.ToDoubleFunction;

/**
 * The range-delete experiment's section of report.md: what ran, each engine's figures per method as
 * median [smallest-largest] over the rounds, each engine's {@code range / per-key} ratios, each
 * engine's ratio to {@code cairn} per method with the A/A band's verdict ({@link RangeBands}), and
 * bytes written, load times and sizes.
 */
final class RangeDeleteReport {
  static final String TITLE = "Range deletes: one deleteRange against a delete per key";

  private static final double MIB = 1 << 20;

  /** A column of the bytes table: its header and the figure from one run. */
  private record Column(String header, ToDoubleFunction<RangeRun> value) {}

  private static final List<Column> BYTES = List.of(
      new Column("load s", r -> r.load().seconds()),
      new Column("settle s", RangeRun::settleSeconds),
      new Column("load MiB written", r -> mib(r.load().bytesWritten())),
      new Column("delete MiB written", r -> mib(r.delete().bytesWritten())),
      new Column("gets MiB written", r -> mib(r.gets().bytesWritten())),
      new Column("scans MiB written", r -> mib(r.scans().bytesWritten())),
      new Column("flush s", r -> r.flush().seconds()),
      new Column("flush MiB written", r -> mib(r.flush().bytesWritten())),
      new Column("compact s", r -> r.compact().seconds()),
      new Column("compact MiB written", r -> mib(r.compact().bytesWritten())),
      new Column("drop s", r -> r.drop().seconds()),
      new Column("drop MiB written", r -> mib(r.drop().bytesWritten())),
      new Column("close s", RangeRun::closeSeconds));

  private RangeDeleteReport() {}

  static void markdown(StringBuilder sb, FeaturesSettings s, List<FeaturesRound> rounds) {
    sb.append("## ").append(TITLE).append("\n\n");
    whatRan(sb, s, rounds);
    perMethod(sb, rounds);
    rangeOverPerKey(sb, rounds);
    againstCairn(sb, rounds);
    bytes(sb, rounds);
  }

  private static void whatRan(StringBuilder sb, FeaturesSettings s, List<FeaturesRound> rounds) {
    RangeDeleteWorkload shape = RangeDeleteWorkload.draw(s.records(), 0, 0, s.seed());
    sb.append("### What ran\n\n").append(String.format(Locale.ROOT, "%,d records (16-byte keys `user%%012d`, "
            + "%d-byte incompressible values, each a function of its key and the seed %d), one thread. Per engine "
            + "and round, each method on a fresh database: *load*, every record in key order in write batches of "
            + "%,d, then a wait until the engine reports no flush or compaction running or wanted (recorded, not "
            + "compared); *delete*, the %,d keys [`%s`, `%s`) (the tenth of the key space from 45%%) by the method, "
            + "timed; *read-during*, right after and before any manual compaction, %,d point gets of keys uniform "
            + "over all records (the deleted ones included; gets/s), then %,d scans from keys uniform likewise, "
            + "each a new iterator reading the next %d entries or to the end (scans/s); *flush*, the memtable flushed "
            + "and the background work that causes waited for as after the load, the directory sized after it "
            + "(the space the engine reclaims by itself); *compact*, a full manual compaction, timed, with its "
            + "bytes written, the directory sized right after; then every %dth record read; *drop*, on the "
            + "compacted database, [`%s`, `%s`) (5%% to 95%% of the key space, a tenant dropped) deleted by the "
            + "method (per key: the keys still live), the memtable flushed and the background work waited for, "
            + "the directory sized after it (what the engine reclaims by itself from a settled tree) and every "
            + "%dth record read again. Every read is "
            + "checked: a deleted key returned, a live key missing or a wrong value fails the command. Writes are "
            + "not synced; a `System.gc()` runs before each database and after its load. Every engine has a %d MiB block cache.%n%n",
        s.records(), RangeDeleteWorkload.VALUE_BYTES, s.seed(), RangeDeleteWorkload.BATCH, shape.deleted(),
        RangeRun.name(shape.deleteFrom()), RangeRun.name(shape.deleteTo()), s.gets(), s.scans(),
        RangeDeleteWorkload.SCAN_LENGTH, RangeDeleteWorkload.VERIFY_STRIDE, RangeRun.name(shape.dropFrom()),
        RangeRun.name(shape.dropTo()), RangeDeleteWorkload.VERIFY_STRIDE, s.cacheBytes() >> 20));
    sb.append("- *range*: one `deleteRange(from, toExclusive)` call (`Cairn.deleteRange`, `RocksDB.deleteRange`): "
        + "one range tombstone.\n");
    sb.append("- *per-key*: one `delete` per key in write batches of ").append(String.format(Locale.ROOT, "%,d",
        RangeDeleteWorkload.BATCH)).append(" (a Cairn `WriteBatch`, a RocksDB `WriteBatch`), the keys made before "
        + "the clock starts.\n\n");
    sb.append("Compaction: Cairn's `compactRange(null, null)`, RocksDB's `compactRange()`; both flush the memtable "
        + "first. Engines: `cairn` is `Options.builder().blockCacheBytes(cache)`, otherwise Cairn's defaults; "
        + "`cairn-aa` the same again, the A/A control; `rocksdb` and `rocksdb-best` as in the counter experiment "
        + "(RocksDB's defaults with the cache; the runner's best column family options), none with a merge "
        + "operator. RocksDB's defaults compress blocks (LZ4), which these values do not reward.\n\n");
    sb.append("Each round runs the methods in an order rotated as the engines' is, the same on every engine: ");
    List<String> orders = new ArrayList<>();
    for (FeaturesRound r : rounds) {
      orders.add("round " + r.round() + " " + String.join(", then ", RangeMethod.order(r.round() - 1).stream()
          .map(RangeMethod::label).toList()));
    }
    sb.append(String.join("; ", orders)).append(".\n\n");
  }

  private static void perMethod(StringBuilder sb, List<FeaturesRound> rounds) {
    sb.append("### Per engine and method\n\n| engine | method");
    for (RangeFigure f : RangeFigure.values()) {
      sb.append(" | ").append(f.label()).append(' ').append(f.unit());
    }
    sb.append(" |\n|---|---").append("|---".repeat(RangeFigure.values().length)).append("|\n");
    for (String engine : CounterEngines.NAMES) {
      for (RangeMethod m : RangeMethod.values()) {
        sb.append("| ").append(engine).append(" | ").append(m.label());
        for (RangeFigure f : RangeFigure.values()) {
          sb.append(" | ").append(render(RangeBands.values(rounds, engine, m, f)));
        }
        sb.append(" |\n");
      }
    }
    sb.append("\n*delete*: the one call, or every batch of deletes; *gets*, *scans*: the read-during phase; "
        + "*size after flush*: the database directory once the delete's flush and the background work it caused "
        + "are done, before any manual compaction; *flush + compact*: that flush and wait, and the full "
        + "compaction after it, together (a flush can set off compactions that do part of the manual one's work: "
        + "Cairn's L0 reaches its trigger with it); *flush + compact written*: their bytes written; *size after "
        + "compact*: the directory right after it (files a compaction left for deletion "
        + "later still count).\n\n");
  }

  private static void rangeOverPerKey(StringBuilder sb, List<FeaturesRound> rounds) {
    sb.append("### range / per-key\n\nEach engine's figure by *range* over its own by *per-key* in the same "
        + "round: below 1 a time or size is smaller with one range delete, above 1 a rate is higher.\n\n| engine");
    for (RangeFigure f : RangeFigure.values()) {
      sb.append(" | ").append(f.label());
    }
    sb.append(" |\n|---").append("|---".repeat(RangeFigure.values().length)).append("|\n");
    for (String engine : CounterEngines.NAMES) {
      sb.append("| ").append(engine);
      for (RangeFigure f : RangeFigure.values()) {
        sb.append(" | ").append(ratio(RangeBands.methodRatios(rounds, engine, f)));
      }
      sb.append(" |\n");
    }
    sb.append('\n');
  }

  private static void againstCairn(StringBuilder sb, List<FeaturesRound> rounds) {
    sb.append("### Against cairn\n\nEach engine's figure over `cairn`'s by the same method in the same round, "
        + "median [smallest-largest] over the rounds: below 1 a time or size is smaller than cairn's, above 1 a "
        + "rate is higher. The A/A band is `cairn-aa` over `cairn`: ");
    List<String> bands = new ArrayList<>();
    for (RangeMethod m : RangeMethod.values()) {
      for (RangeFigure f : RangeFigure.values()) {
        bands.add(f.label() + " (" + m.label() + ") " + RangeBands.aaBand(rounds, m, f).map(b -> ratio(b)
            + " (noise range " + String.format(Locale.ROOT, "%s-%s", fixed(b.noiseRange().min()),
            fixed(b.noiseRange().max())) + ")").orElse("n/a"));
      }
    }
    sb.append(String.join("; ", bands)).append(". A ratio whose band overlaps the noise range is *no "
        + "difference*; otherwise the engine with the better figure is named.");
    if (rounds.size() < 3) {
      sb.append(" With ").append(rounds.size() == 1 ? "one round" : rounds.size() + " rounds")
          .append(" the bands are too narrow to trust: a verdict needs several rounds.");
    }
    sb.append("\n\n| engine | method | figure | ratio to cairn | verdict |\n|---|---|---|---|---|\n");
    List<RangeBands.Comparison> comparisons = RangeBands.comparisons(rounds);
    for (RangeBands.Comparison c : comparisons) {
      sb.append("| ").append(c.engine()).append(" | ").append(c.method().label()).append(" | ")
          .append(c.figure().label()).append(" | ").append(ratio(c.ratio())).append(" | ").append(c.verdict())
          .append(" |\n");
    }
    sb.append('\n');
    for (RangeBands.Comparison c : comparisons) {
      sb.append("- ").append(sentence(c)).append('\n');
    }
    sb.append('\n');
  }

  /** A comparison in words, Cairn's losses said as plainly as its wins. */
  static String sentence(RangeBands.Comparison c) {
    double m = c.ratio().median();
    RangeFigure f = c.figure();
    String what = f.label() + " (" + c.method().label() + ")";
    String e = c.engine();
    if (c.verdict().equals(RatioBands.NO_DIFFERENCE)) {
      return String.format(Locale.ROOT, "%s: %s and cairn show no difference beyond the A/A band (%s's %s at %sx "
          + "cairn's).", what, e, e, f.noun(), fixed(m));
    }
    boolean engineBetter = c.verdict().equals(e + " " + f.better());
    String winner = engineBetter ? e : CounterEngines.CAIRN;
    String loser = engineBetter ? CounterEngines.CAIRN : e;
    // The loser's figure over the winner's, and its reciprocal.
    double loserOverWinner = engineBetter ? 1 / m : m;
    return String.format(Locale.ROOT, "%s: %s is %s than %s: %s's %s is %sx %s's (%s's %sx %s's).", what, winner,
        f.better(), loser, loser, f.noun(), fixed(loserOverWinner), winner, winner, fixed(1 / loserOverWinner),
        loser);
  }

  private static void bytes(StringBuilder sb, List<FeaturesRound> rounds) {
    sb.append("### Bytes written, load times and sizes\n\nMiB written: the process's `write_bytes` less "
        + "`cancelled_write_bytes` from `/proc/self/io` over each phase (the engine's log, flushes and compactions; "
        + "the load's background work is done before the delete starts). A phase that deletes files whose pages "
        + "never reached the disk (a log, a table compacted away) is credited with them, so a short phase's "
        + "figure can be negative. Load s: the puts; settle s: the wait "
        + "after them for the engine's background work; flush s: the delete's flush and the wait after it (to the "
        + "wait's 50 ms poll). Close s: the close's wall time.\n\n| engine | method");
    BYTES.forEach(c -> sb.append(" | ").append(c.header()));
    sb.append(" |\n|---|---").append("|---".repeat(BYTES.size())).append("|\n");
    for (String engine : CounterEngines.NAMES) {
      for (RangeMethod m : RangeMethod.values()) {
        sb.append("| ").append(engine).append(" | ").append(m.label());
        List<RangeRun> runs = rounds.stream().flatMap(r -> r.rangeDelete(engine).stream()).map(f -> f.of(m))
            .toList();
        for (Column c : BYTES) {
          sb.append(" | ").append(render(runs.stream().mapToDouble(c.value()).toArray()));
        }
        sb.append(" |\n");
      }
    }
    long unsettled = rounds.stream().flatMap(r -> r.rangeDeletes().stream()).flatMap(f -> f.runs().stream())
        .filter(r -> !r.settled() || !r.flushSettled() || !r.dropSettled()).count();
    if (unsettled > 0) {
      sb.append(String.format(Locale.ROOT, "%nIn %d run(s) the engine still had background work after %d s of "
          + "waiting; their phases began with it running (summary.json: `settled` false).%n",
          unsettled, RangeRun.SETTLE_LIMIT_SECONDS));
    }
    sb.append('\n');
  }

  /** A band in three significant figures, so that a range delete's microseconds and a rate's thousands both read. */
  private static String render(double[] values) {
    return Band.of(values).map(RangeDeleteReport::render).orElse("n/a");
  }

  private static String render(Band b) {
    return render(b, decimals(Math.min(Math.abs(b.min()), Math.abs(b.median()))));
  }

  /** A band of ratios: as {@link #render(Band)}, with at least 3 decimals below 10, so that 1.004 shows as such. */
  private static String ratio(double[] values) {
    return Band.of(values).map(RangeDeleteReport::ratio).orElse("n/a");
  }

  private static String ratio(Band b) {
    return render(b, ratioDecimals(Math.min(Math.abs(b.min()), Math.abs(b.median()))));
  }

  private static String render(Band b, int decimals) {
    String m = format(b.median(), decimals);
    return b.min() == b.max() ? m : m + " [" + format(b.min(), decimals) + "-" + format(b.max(), decimals) + "]";
  }

  /** One ratio, to {@link #ratioDecimals}. */
  private static String fixed(double v) {
    return format(v, ratioDecimals(Math.abs(v)));
  }

  static int ratioDecimals(double magnitude) {
    return magnitude < 10 ? Math.max(3, decimals(magnitude)) : decimals(magnitude);
  }

  /** Decimals that show {@code magnitude} to three significant figures, 0 to 6. */
  static int decimals(double magnitude) {
    if (!(magnitude > 0) || !Double.isFinite(magnitude)) {
      return 2;
    }
    return (int) Math.max(0, Math.min(6, 2 - Math.floor(Math.log10(magnitude))));
  }

  private static String format(double v, int decimals) {
    return Double.isFinite(v) ? String.format(Locale.ROOT, "%,." + decimals + "f", v) : "n/a";
  }

  /** Bytes as MiB; an unavailable count as NaN, which {@link Band#of} leaves out. */
  private static double mib(long bytes) {
    return bytes == EngineMetrics.UNAVAILABLE ? Double.NaN : bytes / MIB;
  }
}
