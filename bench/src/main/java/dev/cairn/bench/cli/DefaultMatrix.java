package dev.cairn.bench.cli;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The matrix Cairn's default is judged on: every workload family on the page cache and on a slow
 * device that every engine's process sees alike, for Cairn as shipped (with its A/A control), each
 * of its named configurations, and RocksDB at its defaults and at its best, three rounds each. One
 * {@code matrix} command line becomes one {@code compare} series a cell (a device and a workload),
 * into {@code OUT/DEVICE/WORKLOAD}: a series takes about an hour, the matrix a day, so a matrix
 * interrupted keeps what it finished: run again, it skips every cell whose folder holds a
 * series.json, and in the cell it was in reads back the rounds that ran to their end
 * ({@link dev.cairn.bench.report.FinishedRound}) and runs the rest.
 *
 * <p>Any {@code compare} flag given replaces the matrix's value for it (a subset of workloads, a
 * shorter run); {@code --devices} picks the devices. The shape is fixed otherwise: each engine's
 * own level shape ({@code --engine-defaults}), 1,000,000 records of 1 KiB, 32 MiB memtables, a
 * 128 MiB cache; the slow device is capped at 400 direct reads/s.
 */
public final class DefaultMatrix {
  /**
   * Cairn's named configurations: the references the default is judged against, the best of them
   * in each cell ({@link dev.cairn.bench.report.MatrixTable}). Only these count as named; the
   * default's A/A control, or the default under any other name, never does.
   */
  public static final List<String> NAMED_CONFIGURATIONS =
      List.of("cairn-table", "cairn-dlsm", "cairn-buffer", "cairn-block", "cairn-table+dlc");
  static final String ENGINES = String.join(",", "cairn-default", "cairn-default-same",
      String.join(",", NAMED_CONFIGURATIONS), "rocksdb", "rocksdb-best");
  static final String WORKLOADS = String.join(",", "rangehot", "zipfian", "uniform", "latest-rangehot",
      "latest-zipfian", "latest-uniform", "scan", "load");
  static final String SLOW_DEVICE_READ_IOPS = "400";

  /** A device of the matrix: its name (the output folder) and the flags that make it. */
  enum Device {
    PAGE("page", Map.of("--seconds", "60")),
    SLOW("slow", Map.of("--seconds", "120", "--device-read-iops", SLOW_DEVICE_READ_IOPS));

    final String folder;
    final Map<String, String> flags;

    Device(String folder, Map<String, String> flags) {
      this.folder = folder;
      this.flags = flags;
    }
  }

  private DefaultMatrix() {}

  /** The cells of a matrix written to {@code out} with the default devices and workloads. */
  public static List<Cell> cells(Path out) {
    return cells(new String[] {"--out", out.toString()});
  }

  /**
   * The cells of {@code matrix ARGS}, device by device and workload by workload, in the order they
   * run.
   *
   * @throws UsageException without {@code --out}, with an unknown device, or with a flag that
   *     names no value
   */
  public static List<Cell> cells(String[] args) {
    Map<String, String> given = given("matrix", args);
    String out = given.remove("--out");
    if (out == null) {
      throw new UsageException("matrix needs --out DIR (its series go into DIR/DEVICE/WORKLOAD)");
    }
    List<Device> devices = devices(Objects.requireNonNullElse(given.remove("--devices"), "page,slow"));
    String workloads = Objects.requireNonNullElse(given.remove("--workloads"), WORKLOADS);
    List<Cell> cells = new ArrayList<>();
    for (Device device : devices) {
      for (String workload : workloads.split(",")) {
        Map<String, String> flags = new LinkedHashMap<>();
        flags.put("--engines", ENGINES);
        flags.put("--workloads", workload.trim());
        flags.put("--repeat", "3");
        flags.put("--records", "1000000");
        flags.put("--memtable-mb", "32");
        flags.put("--cache-mb", "128");
        flags.putAll(device.flags);
        flags.putAll(given);
        Path folder = Path.of(out, device.folder, workload.trim());
        flags.put("--out", folder.toString());
        flags.put("--engine-defaults", null);
        cells.add(Cell.of(folder, flags));
      }
    }
    return cells;
  }

  /**
   * One cell of the matrix: the {@code compare} command line of its series and the folder it
   * writes. {@link #done} once the folder holds the series' summary.
   */
  public record Cell(Path out, List<String> command) {
    /** The cell of the {@code compare} flags {@code flags} (a null value: a flag without one). */
    static Cell of(Path out, Map<String, String> flags) {
      List<String> command = new ArrayList<>();
      flags.forEach((name, value) -> {
        command.add(name);
        if (value != null) {
          command.add(value);
        }
      });
      return new Cell(out, command);
    }

    public boolean done() {
      return Files.isRegularFile(out.resolve("series.json"));
    }
  }

  /**
   * The {@code compare} flags of a command line of cells ({@code matrix}, {@code blockdb}), by
   * name, in order; a boolean flag's value is null.
   *
   * @throws UsageException for an argument that is no flag, a flag given twice or without its value
   */
  static Map<String, String> given(String command, String[] args) {
    Map<String, String> given = new LinkedHashMap<>();
    for (int i = 0; i < args.length; i++) {
      String arg = args[i];
      int eq = arg.indexOf('=');
      if (!arg.startsWith("--")) {
        throw new UsageException(command + ": expected a flag, got '" + arg + "'");
      }
      String name = eq > 0 ? arg.substring(0, eq) : arg;
      String value;
      if (Flags.BOOLEAN_FLAGS.contains(name)) {
        value = null; // Flags.parse refuses a value, naming the flag
      } else if (eq > 0) {
        value = arg.substring(eq + 1);
      } else if (i + 1 < args.length) {
        value = args[++i];
      } else {
        throw new UsageException(command + ": flag " + name + " needs a value");
      }
      if (given.containsKey(name)) {
        throw new UsageException(command + ": flag " + name + " given twice");
      }
      given.put(name, value);
    }
    return given;
  }

  /**
   * The choices a comma-separated list names, each once, in the order named ({@code --devices},
   * {@code --shapes}).
   *
   * @param known every choice by its name, in the order the error message lists them
   * @throws UsageException naming an unknown name, the kind of choice and the valid names
   */
  static <T> List<T> named(String command, String kind, String names, Map<String, T> known) {
    List<T> chosen = new ArrayList<>();
    for (String name : names.split(",")) {
      T choice = known.get(name.trim());
      if (choice == null) {
        throw new UsageException(command + ": unknown " + kind + " '" + name + "'; valid " + kind + "s: "
            + String.join(", ", known.keySet()));
      }
      if (!chosen.contains(choice)) {
        chosen.add(choice);
      }
    }
    return chosen;
  }

  private static List<Device> devices(String names) {
    Map<String, Device> known = new LinkedHashMap<>();
    for (Device d : Device.values()) {
      known.put(d.folder, d);
    }
    return named("matrix", "device", names, known);
  }
}
