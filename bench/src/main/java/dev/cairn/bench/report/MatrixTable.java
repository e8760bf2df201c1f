package dev.cairn.bench.report;

import dev.cairn.bench.cli.DefaultMatrix;
import dev.cairn.bench.report.SeriesAnalysis.Band;
import dev.cairn.bench.report.SeriesAnalysis.Ratio;
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
import java.util.function.Function;
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
 * spread (on the slow device, where two minutes are still the cache's warm-up, a cell's A/A band
 * read 1.02-1.04 in one series and 0.89-1.35 in the next), and a verdict beyond the noise should
 * not rest on that luck; the cell's own band is shown beside the device's. The page cache's cells
 * are pooled apart from the slow device's, so a quiet device keeps its narrow band.
 *
 * <p>Without an A/A control on the device no verdict is decided and an aim that needs one is
 * "undecided"; a ratio with no round in which both engines ran to their end is "n/a", its aim "not
 * judged". Only "met" counts as met. A ratio over fewer rounds than the cell ran says how many.
 * A cell counts as run
 * once its series is finished (its series.json written, {@link DefaultMatrix.Cell#done}); the
 * others have a row saying they are not run yet, and the line under the table counts the cells
 * where every aim was met, so that a partial matrix never reads as a whole one.
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
    }
    int run = finished.size();
    sb.append("\nEvery aim met in ").append(allMet).append(" of the ").append(run).append(" cells run");
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
   * pooled (empty where no cell of the device has a control that finished a round).
   */
  static Map<Path, Optional<Band>> deviceNoise(Collection<Finished> finished) {
    Map<Path, DoubleStream.Builder> pooled = new LinkedHashMap<>();
    for (Finished f : finished) {
      DoubleStream.Builder values = pooled.computeIfAbsent(f.cell().getParent(), device -> DoubleStream.builder());
      Arrays.stream(f.controlRounds()).forEach(values);
    }
    Map<Path, Optional<Band>> noise = new LinkedHashMap<>();
    pooled.forEach((device, values) -> noise.put(device, Band.of(values.build().toArray())));
    return noise;
  }

  /** A cell's row (after its device and workload) and whether the default met every aim there. */
  record Row(String text, boolean allMet) {}

  static Row row(Finished cell, Optional<Band> deviceNoise) {
    WorkloadSeries w = cell.series();
    SeriesRecords s = cell.records();
    Figure f = cell.figure();
    Optional<Band> own = band(w, DEFAULT, f);
    Optional<String> best = SeriesAnalysis.measuredCairns(w.engines().keySet()).stream()
        .filter(e -> !e.equals(DEFAULT))
        .filter(e -> band(w, e, f).isPresent())
        .max(Comparator.comparingDouble(e -> band(w, e, f).get().median()));
    if (own.isEmpty() || best.isEmpty()) {
      return new Row(f.heading() + " | " + own.map(b -> b.render(0)).orElse("no run ended") + " | "
          + best.orElse("none ran to its end") + " | not judged | not judged | not judged | |", false);
    }
    // The verdicts read the device's pooled band; the cell's own twins are one sample of it.
    Optional<Ratio> control = deviceNoise.map(b -> new Ratio("A/A", DEFAULT, b.count(), Map.of(f, b), Map.of()));
    int rounds = s.rounds().size();
    Judged vsBest = judged(s, w, best.get(), f, control, r -> atLeast(r, f, AIM_AGAINST_BEST_NAMED));
    Judged vsPeer = judged(s, w, PEER_BEST, f, control, r -> atLeast(r, f, 1.0));
    Judged vsBefore = judged(s, w, BEFORE, f, control, r -> noLoss(r.verdicts().get(f)));
    String cellBand = w.control().map(c -> c.bands().get(f)).map(b -> b.render(2)).orElse("none");
    String deviceBand = deviceNoise.map(b -> b.render(2) + " over " + b.count() + " rounds").orElse("none");
    String text = f.heading() + " | " + own.get().render(0) + " | " + best.get() + ", "
        + band(w, best.get(), f).get().render(0) + " | " + vsBest.entry(f, rounds) + " | "
        + vsPeer.entry(f, rounds) + " | " + vsBefore.entry(f, rounds) + " | " + cellBand + "; " + deviceBand + " |";
    boolean allMet = vsBest.aim().equals(MET) && vsPeer.aim().equals(MET) && vsBefore.aim().equals(MET);
    return new Row(text, allMet);
  }

  /** One ratio of the default over another engine (empty: no round in which both ran) and its aim's word. */
  private record Judged(Optional<Ratio> ratio, String aim) {
    /** The table entry: "0.92 [0.84-1.10] same, met", the rounds when fewer than the cell ran. */
    String entry(Figure f, int rounds) {
      if (ratio.isEmpty()) {
        return "n/a, " + aim;
      }
      Ratio r = ratio.get();
      return r.bands().get(f).render(2) + " " + r.verdicts().get(f).word() + ", " + aim
          + (r.rounds() < rounds ? " (" + r.rounds() + " of " + rounds + " rounds)" : "");
    }
  }

  private static Judged judged(SeriesRecords s, WorkloadSeries w, String bottom, Figure f, Optional<Ratio> control,
      Function<Ratio, String> aim) {
    Ratio r = SeriesAnalysis.ratio(s.rounds(), w.workload(), DEFAULT, bottom, List.of(f), control);
    return r.bands().containsKey(f) ? new Judged(Optional.of(r), aim.apply(r))
        : new Judged(Optional.empty(), "not judged");
  }

  private static Optional<Band> band(WorkloadSeries w, String engine, Figure f) {
    return Optional.ofNullable(w.engines().get(engine)).map(bands -> bands.get(f));
  }

  /** "met" at a median of {@code aim} or more, "no difference" below it within the noise, else "missed". */
  private static String atLeast(Ratio r, Figure f, double aim) {
    if (r.bands().get(f).median() >= aim) {
      return MET;
    }
    return switch (r.verdicts().get(f)) {
      case SAME -> "no difference";
      case UNDECIDED -> "undecided";
      default -> "missed";
    };
  }

  private static String noLoss(Verdict v) {
    return switch (v) {
      case WORSE -> "missed";
      case UNDECIDED -> "undecided";
      default -> MET;
    };
  }
}
