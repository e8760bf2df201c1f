package dev.cairn.bench.cli;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * BlockDB's load experiment (Wang et al., ICDE 2022, section V: a uniform load of 32-byte keys and
 * 1 KiB values, write amplification in all and per level, running time, space, then the reads
 * after), as {@code compare} series that run by one command line and resume where they stopped,
 * as {@link DefaultMatrix}'s do: a series per level shape into {@code OUT/SHAPE}.
 *
 * <p>Each series loads {@value #DEFAULT_RECORDS} records (about 20 GiB; {@code --records}
 * changes it) in a seeded random order into each engine, lets the tree settle ({@code --settle}:
 * the write amplification is a settled tree's and the seconds run to it), then reads uniform
 * keys for a minute and scans from uniform keys for a minute, three rounds with the engine order
 * rotated and {@code cairn-table-same} as the A/A control. The block cache is a tenth of the data,
 * as the paper's 4 GB for 40 GB. The shapes:
 *
 * <ul>
 *   <li>{@code leveldb}: LevelDB's own shape, which BlockDB keeps: 4 MiB memtables, 2 MiB tables,
 *       a 10 MiB level 1, ratio 10, for every engine;
 *   <li>{@code defaults}: each engine at its own level shape ({@code --engine-defaults}) with
 *       Cairn's default 32 MiB memtable.
 * </ul>
 *
 * Any {@code compare} flag given replaces the experiment's value for it; {@code --shapes} picks
 * the shapes. The paper's mixes of writes and reads run after the reads and scans with
 * {@code --ycsb-mix-seconds S}, each mix S seconds on the loaded tree.
 */
public final class BlockDbExperiment {
  static final long DEFAULT_RECORDS = 20_000_000;
  static final String ENGINES = "cairn-table,cairn-table-same,cairn-block,rocksdb,leveldb";
  private static final int KEY_BYTES = 32;
  private static final int VALUE_BYTES = 1024;
  /** The block cache's share of the data (BlockDB: 4 GB of cache for 40 GB). */
  private static final double CACHE_FRACTION = 0.1;

  /** A level shape of the experiment: its name (the output folder) and the flags that make it. */
  enum Shape {
    LEVELDB("leveldb", Map.of("--memtable-mb", "4", "--file-mb", "2", "--l1-mb", "10", "--level-ratio", "10")),
    DEFAULTS("defaults", Map.of("--memtable-mb", "32"));

    final String folder;
    final Map<String, String> flags;

    Shape(String folder, Map<String, String> flags) {
      this.folder = folder;
      this.flags = flags;
    }
  }

  private BlockDbExperiment() {}

  /**
   * The series of {@code blockdb ARGS}, shape by shape, in the order they run.
   *
   * @throws UsageException without {@code --out}, with an unknown shape, or with a flag that names
   *     no value
   */
  public static List<DefaultMatrix.Cell> cells(String[] args) {
    Map<String, String> given = DefaultMatrix.given("blockdb", args);
    String out = given.remove("--out");
    if (out == null) {
      throw new UsageException("blockdb needs --out DIR (its series go into DIR/SHAPE)");
    }
    List<Shape> shapes = shapes(Objects.requireNonNullElse(given.remove("--shapes"), "leveldb,defaults"));
    long records = given.containsKey("--records") ? Long.parseLong(given.get("--records")) : DEFAULT_RECORDS;
    long cacheMib = Math.max(1, Math.round(records * (double) (KEY_BYTES + VALUE_BYTES) * CACHE_FRACTION / (1 << 20)));
    List<DefaultMatrix.Cell> cells = new ArrayList<>();
    for (Shape shape : shapes) {
      Map<String, String> flags = new LinkedHashMap<>();
      flags.put("--engines", ENGINES);
      flags.put("--workloads", "load");
      flags.put("--repeat", "3");
      flags.put("--records", Long.toString(records));
      flags.put("--key-bytes", Integer.toString(KEY_BYTES));
      flags.put("--value-bytes", Integer.toString(VALUE_BYTES));
      flags.put("--cache-mb", Long.toString(cacheMib));
      flags.put("--seconds", "36000"); // the load's writers stop at the last record, long before
      flags.put("--settle", null);
      flags.put("--read-seconds", "60");
      flags.put("--scan-seconds", "60");
      flags.putAll(shape.flags);
      if (shape == Shape.DEFAULTS) {
        flags.put("--engine-defaults", null);
      }
      flags.putAll(given);
      Path folder = Path.of(out, shape.folder);
      flags.put("--out", folder.toString());
      cells.add(DefaultMatrix.Cell.of(folder, flags));
    }
    return cells;
  }

  private static List<Shape> shapes(String names) {
    Map<String, Shape> known = new LinkedHashMap<>();
    for (Shape s : Shape.values()) {
      known.put(s.folder, s);
    }
    return DefaultMatrix.named("blockdb", "shape", names, known);
  }
}
