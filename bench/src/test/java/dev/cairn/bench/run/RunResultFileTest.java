package dev.cairn.bench.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A forked run's result comes back exactly as the child measured it, NaN and nulls included. */
class RunResultFileTest {
  /** Every figure distinct, so that two components written in each other's place would show. */
  private static RunResult distinctFigures(List<MixFigures> mixes) {
    Map<String, Object> config = new LinkedHashMap<>();
    config.put("records", 1_000_000);
    config.put("cache_bytes", 128L << 20);
    config.put("hot_fraction", 0.15);
    config.put("direct_io", true);
    config.put("compression", "none");
    config.put("absent", null);
    List<Sample> samples = List.of(
        new Sample(1, "cairn-table", "periodic", 2, 3, 4, 0.5, 6, 7, 8, 9, 10, 11, 12, "HIGH", true, 13),
        new Sample(2, "cairn-table", "periodic", Double.NaN, 14, 15, Double.NaN, 16, 17, 18, 19, 20, 21, -1, "", false,
            Double.NaN));
    return new RunResult("cairn-table", "periodic", null, samples, 101, 102, 103, 104, 105, 106, 107, 108, 109, 110,
        111, 112, 113, 114, 115L << 33, 116, 117, 118, 119, List.of("bloom_bits_per_key", "direct_io"), config,
        120, 121, 122, Double.NaN, 123, List.of(1.0, 2.5, 3.25),
        new FollowUp(124, 125, 126, 127, 128, Double.NaN, 134, 135, mixes),
        129, 130, 131, 132, Double.NaN, 133);
  }

  private static final List<MixFigures> MIXES =
      List.of(new MixFigures("write_heavy", 136, 137, 0.25), new MixFigures("read_only", 138, Double.NaN, 0.75));

  @Test
  void everyComponentSurvivesTheRoundTrip(@TempDir Path dir) throws IOException {
    RunResult written = distinctFigures(MIXES);
    Path file = dir.resolve("result.bin");
    RunResultFile.write(file, written);
    // Records compare double components with Double.compare, so NaN must come back as NaN.
    assertEquals(written, RunResultFile.read(file));
  }

  /**
   * A series kept before the mixes resumes under this runner: a version-3 file (this format without
   * the mixes' count at the end) reads as the same run with no mixes.
   */
  @Test
  void aVersion3FileReadsWithNoMixes(@TempDir Path dir) throws IOException {
    RunResult withoutMixes = distinctFigures(List.of());
    Path file = dir.resolve("result.bin");
    RunResultFile.write(file, withoutMixes);
    byte[] bytes = Files.readAllBytes(file);
    byte[] magic3 = RunResultFile.MAGIC_3.getBytes(StandardCharsets.UTF_8);
    assertEquals(RunResultFile.MAGIC.length(), magic3.length, "the two versions' names have one length");
    System.arraycopy(magic3, 0, bytes, 2, magic3.length); // after writeUTF's two length bytes
    Files.write(file, Arrays.copyOf(bytes, bytes.length - Integer.BYTES)); // no mix count
    assertEquals(withoutMixes, RunResultFile.read(file));
  }

  @Test
  void aFailedRunKeepsItsError(@TempDir Path dir) throws IOException {
    RunResult written = RunResult.failed("rocksdb", "load", "IOException: disk full", Map.of("records", 5));
    Path file = dir.resolve("result.bin");
    RunResultFile.write(file, written);
    RunResult read = RunResultFile.read(file);
    assertEquals(written, read);
    assertEquals("IOException: disk full", read.error());
  }

  @Test
  void aFileOfAnotherFormatIsRefusedByName(@TempDir Path dir) throws IOException {
    Path file = dir.resolve("result.bin");
    Files.write(file, new byte[] {0, 5, 'h', 'e', 'l', 'l', 'o'});
    IOException e = assertThrows(IOException.class, () -> RunResultFile.read(file));
    assertTrue(e.getMessage().contains("not a run result") && e.getMessage().contains(file.toString()),
        e.getMessage());
  }
}
