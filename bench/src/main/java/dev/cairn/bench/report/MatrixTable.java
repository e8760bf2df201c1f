package dev.cairn.bench.report;

import dev.cairn.bench.cli.DefaultMatrix;
import dev.cairn.bench.report.SeriesAnalysis.Band;
import dev.cairn.bench.report.SeriesAnalysis.Verdict;
import dev.cairn.bench.report.SeriesAnalysis.WorkloadSeries;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Collection;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.DoubleStream;

/**
 * Cairn's default judged on the matrix (docs/decisions/0020, "How it will be judged"): one row a
 * cell, a device and a workload, read from the series the {@code matrix} command kept in
 * {@code DEVICE/WORKLOAD}. Each row gives the default's own figure (reads/s; scans/s where the
 * workload only scans, writes/s where it only writes), the best of Cairn's named configurations
 * there, and the default's ratio to that configuration, to RocksDB at its best and to the default
 * before ({@code cairn-table}), each a median [min-max] of per-round ratios with its verdict
 * against the device's A/A noise, followed by the word of the aim it is judged on:
 *
 * <ul>
 *   <li>against the best named configuration, at least 0.9x: "met" when the median is 0.9 or
 *       more, "no difference" when it is below but its band overlaps the A/A noise (the two cannot
 *       be told apart), "missed" otherwise;
 *   <li>against RocksDB at its best, at least 1x: "met", "no difference" or "missed" alike;
 *   <li>against the default before, no loss beyond the A/A band: "missed" when the verdict is
 *       "worse", "met" otherwise.
 * </ul>
 *
 * The A/A noise a verdict is read against is the device's, not the cell's alone: the A/A
 * control's per-round ratios of every finished cell of the device, each on its cell's own figure,
 * pooled into one band. One twin pair over three rounds can be far narrower than a cell's real
 * spread (on the slow device, where two minutes are still the cache's warm-up, one cell's A/A band
 * read 1.02-1.04 in one series and 0.89-1.35 in a later one), and a verdict beyond the noise
 * should not rest on that luck. Each device is pooled apart, since each has noise of its own. A
 * wider band can only move a verdict towards "same", so the default's loss towards "no
 * difference", never the other way: where the cell's own twins alone would have said otherwise,
 * the entry says so in brackets, the last column gives the cell's band beside the device's, and
 * the line under the table counts the cells whose every aim was met only against the device's
 * band.
 *
 * <p>Without an A/A control on the device no verdict is decided and an aim that needs one is
 * "undecided"; a ratio with no round in which both engines ran to their end is "n/a", its aim "not
 * judged". Only "met" counts as met. A ratio over fewer rounds than the cell ran says how many. A
 * cell counts as run once its series is finished (its series.json written,
 * {@link DefaultMatrix.Cell#done}); the others have a row saying they are not run yet, and the
 * line under the table counts the cells where every aim was met, so that a partial matrix never
 * reads as a whole one.
 */
public final class MatrixTable {
  static final String DEFAULT = "cairn-default";
  static final String BEFORE = "cairn-table";
  static final String PEER_BEST = "rocksdb-best";
  static final double AIM_AGAINST_BEST_NAMED = 0.9;
  private static final String MET = "met";

  private MatrixTable() {}

  /**
   * The table of the matrix kept under {@code matrix} (its DEVICE/WORKLOAD series folders).
   *
   * @throws IOException when {@code matrix} is no folder, or a finished cell's records cannot be read
   */
  public static String render(Path matrix) throws IOException {
    if (!Files.isDirectory(matrix)) {
      throw new IOException(matrix + " is no folder: a matrix block names the folder a matrix command wrote");
    }
    StringBuilder sb = new StringBuilder("| device | workload | figure | cairn-default | best named"
        + " | default / best named | default / rocksdb-best | default / cairn-table | A/A band: cell; device |\n");
    sb.append("|---".repeat(9)).append("|\n");
    List<DefaultMatrix.Cell> cells = DefaultMatrix.cells(matrix);
    Map<Path, Finished> finished = new LinkedHashMap<>();
    for (DefaultMatrix.Cell cell : cells) {
      if (cell.done()) {
        finished.put(cell.out(), Finished.of(cell.out(), SeriesRecords.load(cell.out())));
      }
    }
    Map<Path, Optional<Band>> noise = deviceNoise(finished.values());
    int allMet = 0;
    int onlyOnDeviceBand = 0;
    for (DefaultMatrix.Cell cell : cells) {
      sb.append("| ").append(cell.out().getParent().getFileName()).append(" | ").append(cell.out().getFileName())
          .append(" | ");
      Finished done = finished.get(cell.out());
      if (done == null) {
        sb.append("not run yet |  |  |  |  |  |  |\n");
        continue;
      }
      Row row = row(done, noise.get(cell.out().getParent()));
      sb.append(row.text()).append('\n');
      allMet += row.allMet() ? 1 : 0;
      onlyOnDeviceBand += row.onlyOnDeviceBand() ? 1 : 0;
    }
    int run = finished.size();
    sb.append("\nEvery aim met in ").append(allMet).append(" of the ").append(run).append(" cells run");
    if (onlyOnDeviceBand > 0) {
      sb.append(", ").append(onlyOnDeviceBand).append(" of them only against the device's A/A band");
    }
    if (run < cells.size()) {
      sb.append(" (").append(cells.size() - run).append(" of ").append(cells.size()).append(" not run yet)");
    }
    return sb.append(".\n").toString();
  }

  /** A finished cell: its records, their analysis, and the figure it is judged on. */
  record Finished(Path cell, SeriesRecords records, WorkloadSeries series, Figure figure) {
    static Finished of(Path cell, SeriesRecords s) {
      WorkloadSeries w = SeriesAnalysis.analyse(s.rounds(), s.engines()).get(0);
      if (!w.workload().equals(cell.getFileName().toString())) {
        throw new IllegalArgumentException(cell + " holds the series of workload " + w.workload());
      }
      Figure f = w.figures().contains(Figure.READS) ? Figure.READS
          : w.figures().contains(Figure.SCANS) ? Figure.SCANS : Figure.WRITES;
      return new Finished(cell, s, w, f);
    }

    /** The A/A control's ratio on this cell's figure in each round both twins finished. */
    double[] controlRounds() {
      return SeriesAnalysis.controlPair(records.engines())
          .map(pair -> SeriesAnalysis.perRound(records.rounds(), series.workload(), pair[0], pair[1], figure))
          .orElse(new double[0]);
    }
  }

  /**
   * Each device folder's A/A noise: every finished cell's per-round A/A ratios on its own figure,
   * pooled (empty where no cell of the device has a control that finished a round). A ratio of 0
   * (a twin that served nothing yet ended its run) is left out: its reciprocal would make every
   * verdict of the device "same".
   */
  static Map<Path, Optional<Band>> deviceNoise(Collection<Finished> finished) {
    Map<Path, DoubleStream.Builder> pooled = new LinkedHashMap<>();
    for (Finished cell : finished) {
      DoubleStream.Builder values = pooled.computeIfAbsent(cell.cell().getParent(), device -> DoubleStream.builder());
      Arrays.stream(cell.controlRounds()).filter(v -> v > 0).forEach(values);
    }
    Map<Path, Optional<Band>> noise = new LinkedHashMap<>();
    pooled.forEach((device, values) -> noise.put(device, Band.of(values.build().toArray())));
    return noise;
  }

  /**
   * A cell's row (after its device and workload), whether the default met every aim there, and
   * whether only against the device's band (the cell's own twins alone would have left one unmet).
   */
  record Row(String text, boolean allMet, boolean onlyOnDeviceBand) {}

  static Row row(Finished finished, Optional<Band> deviceNoise) {
    WorkloadSeries w = finished.series();
    Figure f = finished.figure();
    Optional<Band> own = band(w, DEFAULT, f);
    Optional<String> best = DefaultMatrix.NAMED_CONFIGURATIONS.stream()
        .filter(e -> band(w, e, f).isPresent())
        .max(Comparator.comparingDouble(e -> band(w, e, f).get().median()));
    if (own.isEmpty() || best.isEmpty()) {
      return new Row(f.heading() + " | " + own.map(b -> b.render(0)).orElse("no run ended") + " | "
          + best.orElse("none ran to its end") + " | not judged | not judged | not judged | |", false, false);
    }
    int rounds = finished.records().rounds().size();
    Judged vsBest = judged(finished, best.get(), deviceNoise, atLeast(AIM_AGAINST_BEST_NAMED));
    Judged vsPeer = judged(finished, PEER_BEST, deviceNoise, atLeast(1.0));
    Judged vsBefore = judged(finished, BEFORE, deviceNoise, MatrixTable::noLoss);
    String cellBand = cellNoise(finished).map(b -> b.render(2)).orElse("none");
    String deviceBand = deviceNoise.map(b -> b.render(2) + " over " + b.count() + " rounds").orElse("none");
    String text = f.heading() + " | " + own.get().render(0) + " | " + best.get() + ", "
        + band(w, best.get(), f).get().render(0) + " | " + vsBest.entry(rounds) + " | "
        + vsPeer.entry(rounds) + " | " + vsBefore.entry(rounds) + " | " + cellBand + "; " + deviceBand + " |";
    boolean allMet = vsBest.aim().equals(MET) && vsPeer.aim().equals(MET) && vsBefore.aim().equals(MET);
    boolean allMetOnCellBand =
        vsBest.cellAim().equals(MET) && vsPeer.cellAim().equals(MET) && vsBefore.cellAim().equals(MET);
    return new Row(text, allMet, allMet && !allMetOnCellBand);
  }

  /** An aim's word for a ratio of {@code median} whose band has {@code verdict}. */
  private interface Aim {
    String word(double median, Verdict verdict);
  }

  /**
   * One ratio of the default over another engine (no band: no round in which both ran), its
   * verdict against the device's noise and against the cell's own twins, and its aim's word.
   */
  private record Judged(Optional<Band> ratio, int rounds, Verdict verdict, Verdict cellVerdict, String aim,
      String cellAim) {
    static Judged none() {
      return new Judged(Optional.empty(), 0, Verdict.UNDECIDED, Verdict.UNDECIDED, "not judged", "not judged");
    }

    /**
     * The table entry: "0.92 [0.84-1.10] same, met", then what the cell's own twins alone would
     * have said where that differs (pooling can only widen the band, so a reader sees what it
     * changed), then the rounds when fewer than the cell ran.
     */
    String entry(int cellRounds) {
      if (ratio.isEmpty()) {
        return "n/a, " + aim;
      }
      return ratio.get().render(2) + " " + verdict.word() + ", " + aim
          + (cellVerdict != verdict ? " (" + cellVerdict.word() + " on the cell's own band)" : "")
          + (rounds < cellRounds ? " (" + rounds + " of " + cellRounds + " rounds)" : "");
    }
  }

  private static Judged judged(Finished finished, String bottom, Optional<Band> deviceNoise, Aim aim) {
    Figure f = finished.figure();
    double[] perRound =
        SeriesAnalysis.perRound(finished.records().rounds(), finished.series().workload(), DEFAULT, bottom, f);
    Optional<Band> band = Band.of(perRound);
    if (band.isEmpty()) {
      return Judged.none();
    }
    Verdict verdict = SeriesAnalysis.verdict(band.get(), f, deviceNoise);
    Verdict cellVerdict = SeriesAnalysis.verdict(band.get(), f, cellNoise(finished));
    double median = band.get().median();
    return new Judged(band, perRound.length, verdict, cellVerdict, aim.word(median, verdict),
        aim.word(median, cellVerdict));
  }

  /** The cell's own A/A band on its figure (empty without a control that finished a round). */
  private static Optional<Band> cellNoise(Finished finished) {
    return finished.series().control().map(c -> c.bands().get(finished.figure()));
  }

  private static Optional<Band> band(WorkloadSeries w, String engine, Figure f) {
    return Optional.ofNullable(w.engines().get(engine)).map(bands -> bands.get(f));
  }

  /** "met" at a median of {@code aim} or more, "no difference" below it within the noise, else "missed". */
  private static Aim atLeast(double aim) {
    return (median, verdict) -> {
      if (median >= aim) {
        return MET;
      }
      return switch (verdict) {
        case SAME -> "no difference";
        case UNDECIDED -> "undecided";
        default -> "missed";
      };
    };
  }

  private static String noLoss(double median, Verdict verdict) {
    return switch (verdict) {
      case WORSE -> "missed";
      case UNDECIDED -> "undecided";
      default -> MET;
    };
  }
}
