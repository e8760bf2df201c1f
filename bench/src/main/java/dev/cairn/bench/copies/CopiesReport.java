package dev.cairn.bench.copies;

import dev.cairn.Options;
import dev.cairn.bench.report.SeriesAnalysis.Band;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.ToDoubleFunction;

/**
 * report.md and summary.json of {@code copies}: report.md a table per part, each figure the median
 * [smallest-largest] over the rounds, under the command line and the machine; summary.json every
 * round's raw figures.
 */
final class CopiesReport {
  private static final double MIB = 1 << 20;

  /** A column of a part's table: its header, the figure from one round's row, and its decimals. */
  private record Column<T>(String header, ToDoubleFunction<T> value, int decimals) {}

  private static final List<Column<StyleFigures>> CHECKPOINT = List.of(
      new Column<>("checkpoint s", f -> f.checkpoint().seconds(), 3),
      new Column<>("checkpoint MiB", f -> f.checkpoint().bytes() / MIB, 1),
      new Column<>("tables", f -> f.checkpoint().tables(), 0),
      new Column<>("linked", f -> f.checkpoint().linked(), 0),
      new Column<>("copied", f -> f.checkpoint().copied(), 0),
      new Column<>("copied MiB", f -> f.checkpoint().copiedBytes() / MIB, 1),
      new Column<>("database table MiB", f -> f.checkpoint().databaseTableBytes() / MIB, 1));

  private static final List<Column<StyleFigures>> BACKUP = List.of(
      new Column<>("full s", f -> f.backup().fullSeconds(), 2),
      new Column<>("full MiB written", f -> f.backup().fullBytes() / MIB, 1),
      new Column<>("incremental s", f -> f.backup().incrementalSeconds(), 2),
      new Column<>("incremental MiB written", f -> f.backup().incrementalBytes() / MIB, 1),
      new Column<>("incremental tables copied", f -> f.backup().incrementalTables(), 0),
      new Column<>("verify s", f -> f.backup().verifySeconds(), 2),
      new Column<>("restore s", f -> f.backup().restoreSeconds(), 2),
      new Column<>("restored MiB", f -> f.backup().restoredBytes() / MIB, 1));

  private static final List<Column<ManyFigures>> MANY = List.of(
      new Column<>("puts/s", ManyFigures::putsPerSecond, 0),
      new Column<>("heap peak MiB", f -> f.heapPeakBytes() / MIB, 0),
      new Column<>("heap after GC MiB", f -> f.heapAfterGcBytes() / MIB, 0),
      new Column<>("cache MiB", f -> f.cacheBytes() / MIB, 0),
      new Column<>("memtables MiB", f -> f.memtableBytes() / MIB, 0),
      new Column<>("held at peak MiB", f -> f.heldPeakBytes() / MIB, 0),
      new Column<>("held after GC MiB", f -> f.heldAfterGcBytes() / MIB, 0),
      new Column<>("direct peak MiB", f -> f.directPeakBytes() / MIB, 0),
      new Column<>("direct before MiB", f -> f.directBeforeBytes() / MIB, 0),
      new Column<>("threads peak", ManyFigures::threadsPeak, 0),
      new Column<>("threads before", ManyFigures::threadsBefore, 0),
      new Column<>("stalls s", ManyFigures::stallSeconds, 1));

  private CopiesReport() {}

  static String markdown(String command, Machine machine, CopiesSettings s, List<RoundFigures> rounds) {
    StringBuilder sb = new StringBuilder("# Copies: checkpoints, backups and many databases\n\n");
    sb.append("Command: `").append(command).append("`\n\n");
    sb.append(machine.markdown()).append("\n\n");
    sb.append(rounds.size() == 1 ? "One round." : "Each figure is the median [smallest-largest] over "
        + rounds.size() + " rounds.").append(" Every round's figures are in summary.json.\n\n");

    sb.append("## Checkpoints\n\n").append(String.format(Locale.ROOT, "Per compaction style, %,d keys of %,d-byte "
        + "incompressible values put in a random order into a database at Cairn's defaults but for the compaction "
        + "(the style's, at its defaults), flushed and its compactions settled; then `db.checkpoint(dir)` timed. "
        + "A linked table's file has a second name (the database's) and takes no space until the database "
        + "compacts it away; a copied one (a link failed, or the table was being appended) takes its bytes.%n%n",
        s.records(), s.valueBytes()));
    table(sb, "style", byStyle(rounds), CHECKPOINT);

    sb.append("## Backups\n\n").append(String.format(Locale.ROOT, "On the same database, after the checkpoint is "
        + "deleted: a full backup into an empty backup directory; %.0f%% of the keys overwritten (uniformly random, "
        + "each once, same value size), flushed and settled; an incremental backup; that one verified and restored "
        + "into a new directory. MiB written: the growth of the backup directory's `shared/`, where the tables go. "
        + "Each backup reads every table of the database to checksum it, and copies those the directory lacks. "
        + "The data was just written, so its reads come from the page cache where the memory holds it.%n%n",
        BackupFigures.OVERWRITTEN * 100));
    table(sb, "style", byStyle(rounds), BACKUP);

    Options defaults = Options.defaults();
    sb.append("## Many databases\n\n").append(String.format(Locale.ROOT, "%d databases in this JVM at "
        + "`Options.defaults()`, %,d keys of %,d bytes put into each in a spread order by %d writer threads, one "
        + "key into each of a writer's databases in turn. *separate*: `Cairn.open(dir, options)` each (a %d MiB "
        + "cache, %d background threads and up to %d MiB of memtables apiece); *shared*: `Cairn.open(dir, options, "
        + "shared)` on one `SharedResources` (a %d MiB cache, %d background threads, a %d MiB memtable budget). "
        + "Cache, memtable and stall figures when the last put returned; heap after GC after a `System.gc()` then. "
        + "The block cache is off the heap, the memtables on it: *held* is the heap plus the cache, the memtables "
        + "not counted twice. The heap's peak includes uncollected garbage, so it follows the collector and the heap "
        + "limit. Direct memory is the process's block pools, free space included, which the earlier parts' caches "
        + "left partly filled (*direct before*). Threads are the JVM's, the %d writers and the sampler included.%n%n",
        s.databases(), s.manyRecords(), s.valueBytes(), Math.min(ManyDatabases.WRITERS, s.databases()),
        defaults.blockCacheBytes() >> 20, defaults.backgroundThreads(),
        (1 + defaults.maxImmutableMemtables()) * defaults.memtableBytes() >> 20,
        ManyDatabases.SHARED_CACHE_BYTES >> 20, ManyDatabases.SHARED_BACKGROUND_THREADS,
        ManyDatabases.SHARED_MEMTABLE_BUDGET_BYTES >> 20, Math.min(ManyDatabases.WRITERS, s.databases())));
    Map<String, List<ManyFigures>> byConfiguration = new LinkedHashMap<>();
    for (ManyDatabases.Configuration c : ManyDatabases.Configuration.values()) {
      byConfiguration.put(c.label(), rounds.stream().flatMap(r -> r.many().stream())
          .filter(f -> f.configuration().equals(c.label())).toList());
    }
    table(sb, "configuration", byConfiguration, MANY);
    return sb.toString();
  }

  static Map<String, Object> json(String command, Machine machine, CopiesSettings s, List<RoundFigures> rounds) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("command", command);
    m.put("machine", machine.toJson());
    m.put("settings", s.asMap());
    m.put("rounds", rounds.stream().map(RoundFigures::toJson).toList());
    return m;
  }

  private static Map<String, List<StyleFigures>> byStyle(List<RoundFigures> rounds) {
    Map<String, List<StyleFigures>> rows = new LinkedHashMap<>();
    for (RoundFigures r : rounds) {
      for (StyleFigures f : r.styles()) {
        rows.computeIfAbsent(f.style().name(), k -> new ArrayList<>()).add(f);
      }
    }
    return rows;
  }

  /** One markdown table: a row per name, each cell the band of that column's figure over the row's rounds. */
  private static <T> void table(StringBuilder sb, String first, Map<String, List<T>> rows, List<Column<T>> columns) {
    sb.append("| ").append(first);
    columns.forEach(c -> sb.append(" | ").append(c.header()));
    sb.append(" |\n|---").append("|---".repeat(columns.size())).append("|\n");
    for (Map.Entry<String, List<T>> row : rows.entrySet()) {
      sb.append("| ").append(row.getKey());
      for (Column<T> c : columns) {
        double[] values = row.getValue().stream().mapToDouble(c.value()).toArray();
        sb.append(" | ").append(Band.of(values).map(b -> b.render(c.decimals())).orElse("n/a"));
      }
      sb.append(" |\n");
    }
    sb.append('\n');
  }
}
