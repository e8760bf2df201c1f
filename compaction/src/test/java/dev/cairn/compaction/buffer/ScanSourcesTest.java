package dev.cairn.compaction.buffer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cairn.compaction.testing.BufferText.TestFile;
import dev.cairn.model.BufferEntry;
import dev.cairn.model.BufferRun;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * When a scan may read a level file's range from the files a merge made it of: only while the
 * level's buffer holds each of them, as a file entry, over the whole part that overlaps the level
 * file (the golden cases in buffer-draft/draft.txt cover which merges record sources).
 */
class ScanSourcesTest {
  private static final TestFile INPUT = file(1, "c", "f");
  private static final TestFile TARGET_A = file(4, "a", "e");
  private static final TestFile TARGET_B = file(5, "f", "k");
  private static final TestFile OUT_A = file(6, "a", "d");
  private static final TestFile OUT_B = file(7, "e", "k");

  @Test
  void eachOutputIsMadeOfTheAppendedFilesOverlappingIt() {
    Map<Long, List<TestFile>> sources = ScanSources.of(List.of(OUT_A, OUT_B), List.of(INPUT, TARGET_A, TARGET_B),
        List.of());
    assertEquals(List.of(INPUT, TARGET_A), sources.get(6L));
    assertEquals(List.of(INPUT, TARGET_A, TARGET_B), sources.get(7L));
  }

  @Test
  void anOutputThatALeftOutFileOverlapsHasNoSources() {
    // Target 5 [f..k] was cold and left out: output 7 [e..k] was made of it too, output 6 [a..d] not.
    Map<Long, List<TestFile>> sources = ScanSources.of(List.of(OUT_A, OUT_B), List.of(INPUT, TARGET_A),
        List.of(TARGET_B));
    assertEquals(Map.of(6L, List.of(INPUT, TARGET_A)), sources);
  }

  @Test
  void servableWhileTheBufferHoldsEverySourceWholeOverTheLevelFile() {
    List<BufferRun<TestFile>> runs = List.of(
        run(100, new BufferEntry.File<>(INPUT)),
        run(99, new BufferEntry.File<>(TARGET_A), new BufferEntry.File<>(TARGET_B)));
    assertTrue(ScanSources.servable(runs, OUT_B, List.of(INPUT, TARGET_A, TARGET_B)));
  }

  @Test
  void notServableWhenASourceIsGoneOrTrimmedWhereTheLevelFileNeedsIt() {
    List<TestFile> sources = List.of(INPUT, TARGET_A, TARGET_B);
    // Target 5 evicted (or shadowed): its keys of [e..k] would be missing.
    assertFalse(ScanSources.servable(List.of(run(100, new BufferEntry.File<>(INPUT)),
        run(99, new BufferEntry.File<>(TARGET_A))), OUT_B, sources));
    // Target 5 trimmed to its part [f..h]: [i..k] is a marker now.
    assertFalse(ScanSources.servable(List.of(run(100, new BufferEntry.File<>(INPUT)),
        run(99, new BufferEntry.File<>(TARGET_A), new BufferEntry.File<>(TARGET_B, key("f"), key("h")),
            new BufferEntry.Removed<>(key("i"), key("k")))), OUT_B, sources));
    // The input kept only outside the output's range: [c..d] of it is enough for output 6 ...
    List<BufferRun<TestFile>> partInput = List.of(
        run(100, new BufferEntry.File<>(INPUT, key("c"), key("d")), new BufferEntry.Removed<>(key("e"), key("f"))),
        run(99, new BufferEntry.File<>(TARGET_A), new BufferEntry.File<>(TARGET_B)));
    assertTrue(ScanSources.servable(partInput, OUT_A, List.of(INPUT, TARGET_A)));
    // ... but not for output 7, which needs [e..f] of it.
    assertFalse(ScanSources.servable(partInput, OUT_B, sources));
    assertFalse(ScanSources.servable(List.of(), OUT_A, List.of()), "no sources: the level file");
  }

  @SafeVarargs
  private static BufferRun<TestFile> run(long id, BufferEntry<TestFile>... entries) {
    return new BufferRun<>(id, List.of(entries));
  }

  private static TestFile file(long number, String lo, String hi) {
    return new TestFile(number, key(lo), key(hi));
  }

  private static byte[] key(String k) {
    return k.getBytes(StandardCharsets.UTF_8);
  }
}
