package dev.cairn.compaction;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.cairn.model.FileDescriptor;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Where {@link OutputCuts} ends output files. The merge is simulated: keys "k00".."k99" each add
 * {@code ENTRY} bytes to the open file, and a file also ends at the target size, as {@code
 * TableOutput} does; the grandparents cover ten keys each ("k00".."k09", "k10".."k19", ...).
 */
class OutputCutsTest {
  private static final long ENTRY = 100;
  private static final long TARGET = 1_000;

  private static byte[] key(int i) {
    return String.format("k%02d", i).getBytes(StandardCharsets.US_ASCII);
  }

  private static List<FileDescriptor> grandparentsOfTenKeys(long bytesEach) {
    List<FileDescriptor> files = new ArrayList<>();
    for (int i = 0; i < 10; i++) {
      files.add(FileDescriptor.of(100 + i, key(10 * i), key(10 * i + 9), bytesEach, i));
    }
    return files;
  }

  /** The first key of every output file, merging keys {@code from..to-1}. */
  private static List<Integer> fileStarts(OutputCuts cuts, int from, int to) {
    return fileStarts(cuts, from, to, TARGET);
  }

  private static List<Integer> fileStarts(OutputCuts cuts, int from, int to, long target) {
    List<Integer> starts = new ArrayList<>();
    long open = 0;
    for (int i = from; i < to; i++) {
      boolean full = open >= target;
      byte[] k = key(i);
      boolean cut = cuts.cutBefore(k, k.length, full ? 0 : open);
      if (open == 0 || full || cut) {
        starts.add(i);
        open = 0;
      }
      open += ENTRY;
    }
    return starts;
  }

  @Test
  void withoutAlignmentFilesEndAtTheTargetSize() {
    OutputCuts cuts = new OutputCuts(grandparentsOfTenKeys(10), new OutputLimits(TARGET, 1 << 20), 0);
    // Keys 5..44 start mid-grandparent: files of ten keys each straddle two grandparents.
    assertEquals(List.of(5, 15, 25, 35), fileStarts(cuts, 5, 45));
  }

  @Test
  void alignedFilesEndAtGrandparentBoundariesOnceHalfFull() {
    OutputCuts cuts = new OutputCuts(grandparentsOfTenKeys(10), new OutputLimits(TARGET, 1 << 20), 0.5);
    // The first file holds k05..k09 (half the target) and ends at the boundary before k10; from
    // there every file lines up with one grandparent.
    assertEquals(List.of(5, 10, 20, 30, 40), fileStarts(cuts, 5, 45));
  }

  @Test
  void aFileShorterThanTheAlignFractionDoesNotEndAtABoundary() {
    OutputLimits limits = new OutputLimits(TARGET, 1 << 20);
    // From k05 every boundary comes five keys (500 bytes) into a file, below 600: no file aligns.
    assertEquals(List.of(5, 15, 25, 35), fileStarts(new OutputCuts(grandparentsOfTenKeys(10), limits, 0.6), 5, 45));
    // From k03 the first boundary comes at 700 bytes: that file ends there and the rest line up.
    assertEquals(List.of(3, 10, 20, 30, 40), fileStarts(new OutputCuts(grandparentsOfTenKeys(10), limits, 0.6), 3, 45));
  }

  @Test
  void boundedOverlapCutsWithoutAlignmentAsLevelDbDoes() {
    // Grandparents of 400 bytes, at most 1,000 overlapped: the third passed grandparent ends the file.
    OutputCuts cuts = new OutputCuts(grandparentsOfTenKeys(400), new OutputLimits(100_000, 1_000), 0);
    assertEquals(List.of(0, 30, 60, 90), fileStarts(cuts, 0, 100, 100_000));
  }

  @Test
  void theOverlapCountStartsAfreshWithEachFile() {
    // Files of ten keys from k05 each pass one grandparent of 400 bytes: never more than 1,000
    // overlapped per file. Were the count carried across files (LevelDB resets it only at its own
    // cuts), the third boundary passed, at k30, would end a file five keys in.
    OutputCuts cuts = new OutputCuts(grandparentsOfTenKeys(400), new OutputLimits(TARGET, 1_000), 0);
    assertEquals(List.of(5, 15, 25, 35), fileStarts(cuts, 5, 45));
  }

  @Test
  void keysInAGapBetweenGrandparentsStillAlign() {
    List<FileDescriptor> sparse = List.of(
        FileDescriptor.of(1, key(0), key(9), 10, 1),
        FileDescriptor.of(2, key(50), key(59), 10, 2));
    OutputCuts cuts = new OutputCuts(sparse, new OutputLimits(TARGET, 1 << 20), 0.5);
    // k10 steps past the first grandparent (the file k04..k09 is 600 bytes): a cut; k60 steps
    // past the second one after ten keys of the gap, by which point the file was full anyway.
    assertEquals(List.of(4, 10, 20, 30, 40, 50, 60), fileStarts(cuts, 4, 65));
  }

  @Test
  void badInputIsRefused() {
    OutputLimits limits = new OutputLimits(TARGET, 1 << 20);
    List<FileDescriptor> overlapping = List.of(
        FileDescriptor.of(1, key(0), key(20), 10, 1), FileDescriptor.of(2, key(10), key(30), 10, 2));
    assertThrows(IllegalArgumentException.class, () -> new OutputCuts(overlapping, limits, 0.5));
    assertThrows(IllegalArgumentException.class, () -> new OutputCuts(List.of(), limits, 1.5));
    assertThrows(IllegalArgumentException.class, () -> new OutputCuts(List.of(), limits, -0.1));
  }
}
