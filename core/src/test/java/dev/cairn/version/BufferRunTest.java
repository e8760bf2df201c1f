package dev.cairn.version;

import dev.cairn.model.BufferRun;
import dev.cairn.model.BufferEntry;
import static dev.cairn.version.Files.table;
import static dev.cairn.version.Files.user;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@link BufferRun<FileMetaData>#clip} and {@link BufferRun<FileMetaData>#prune}, what a carried buffer keeps of its
 * level's buffer. Tables render as {@code {[entries] [entries]}}, newest first.
 */
class BufferRunTest {
  private static BufferEntry<FileMetaData> file(long number, String lo, String hi) {
    return new BufferEntry.File<>(table(number, lo, hi, 1, 2));
  }

  private static BufferEntry<FileMetaData> marker(String lo, String hi) {
    return new BufferEntry.Removed<>(user(lo), user(hi));
  }

  private static BufferRun<FileMetaData> t(long id, BufferEntry... entries) {
    return new BufferRun<>(id, List.of(entries));
  }

  @Test
  void clipNarrowsEveryEntryToTheRangeAndDropsThoseOutsideIt() {
    List<BufferRun<FileMetaData>> tables = List.of(t(3, marker("d", "e"), file(7, "x", "y")), t(2, file(5, "a", "m")));
    assertEquals("{[removed[d..e]] [#5[c..k]]}", BufferRun.render(BufferRun.clip(tables, user("c"), user("k"))));
  }

  @Test
  void aFileUnderMarkersOfNewerTablesGoesEvenWhenTheyOnlyCoverItTogether() {
    List<BufferRun<FileMetaData>> tables = List.of(t(4, marker("a", "f")), t(3, marker("e", "k")), t(2, file(5, "c", "j")),
        t(1, file(6, "a", "z")));
    assertEquals("{[removed[a..f]] [removed[e..k]] [#6[a..z]]}", BufferRun.render(BufferRun.prune(tables)));
  }

  @Test
  void markersThatOnlyTouchAtTheirEndsDoNotCoverWhatLiesBetween() {
    // "f" and "g" are not adjacent keys ("f\0" lies between): the union has a gap.
    List<BufferRun<FileMetaData>> tables = List.of(t(3, marker("a", "f"), marker("g", "k")), t(2, file(5, "c", "j")));
    assertEquals("{[removed[a..f], removed[g..k]] [#5[c..j]]}", BufferRun.render(BufferRun.prune(tables)));
  }

  @Test
  void aMarkerWithNoOlderFileUnderItGoesAndABufferOfMarkersAloneIsEmpty() {
    List<BufferRun<FileMetaData>> tables = List.of(t(3, marker("a", "b"), marker("p", "q")), t(2, file(5, "o", "z")));
    assertEquals("{[removed[p..q]] [#5[o..z]]}", BufferRun.render(BufferRun.prune(tables)));
    assertEquals(List.of(), BufferRun.prune(List.of(t(3, marker("a", "b")))));
  }

  @Test
  void pruneIsIdempotent() {
    List<BufferRun<FileMetaData>> tables = List.of(t(4, marker("a", "f")), t(3, file(8, "e", "k"), marker("x", "x")),
        t(2, file(5, "c", "d"), file(6, "m", "z")));
    List<BufferRun<FileMetaData>> once = BufferRun.prune(tables);
    assertEquals(once, BufferRun.prune(once));
  }
}
