package dev.cairn.bench.report;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A series read back from the records it kept: {@code DIR/round-1 .. round-N}, each with the
 * round's summary.json and timeseries.csv. The engines are in round 1's order, which is the
 * command line's (later rounds run them in other orders).
 */
public record SeriesRecords(List<List<RunFigures>> rounds, List<String> engines, Map<String, Object> config) {

  public static SeriesRecords load(Path dir) throws IOException {
    List<List<RunFigures>> rounds = new ArrayList<>();
    for (int n = 1; Files.isDirectory(dir.resolve("round-" + n)); n++) {
      rounds.add(RunFigures.fromRecords(dir.resolve("round-" + n)));
    }
    if (rounds.isEmpty()) {
      throw new IOException(dir + " holds no round-1 directory: not the output of compare --repeat");
    }
    List<String> engines = rounds.get(0).stream().map(RunFigures::engine).distinct().toList();
    return new SeriesRecords(List.copyOf(rounds), engines, RunFigures.configOfRecords(dir.resolve("round-1")));
  }
}
