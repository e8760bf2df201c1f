package dev.cairn.db.buffer;

import static dev.cairn.db.buffer.BufferDraftTest.b;
import static dev.cairn.db.buffer.BufferDraftTest.file;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cairn.Options;
import dev.cairn.compaction.buffer.BufferDraft;
import dev.cairn.compaction.buffer.TrimUnits;
import dev.cairn.fs.LocalFileSystem;
import dev.cairn.model.BufferEntry;
import dev.cairn.model.BufferRun;
import dev.cairn.model.KeyFilter;
import dev.cairn.version.FileMetaData;
import dev.cairn.version.VersionEdit;
import dev.cairn.version.VersionSet;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Filter markers (docs/compaction.md, "Filter markers"): the trim's cold parts keep their file's
 * filter, stop only the walks for keys it may hold, never count as covering an older file, and
 * are recorded in the manifest as plain markers.
 */
class FilterMarkerTest {
  @TempDir Path dir;
  private VersionSet versions;

  /** A filter holding exactly {@code keys} (a Bloom filter may say more, never less). */
  private static KeyFilter holding(String... keys) {
    Set<String> set = Set.of(keys);
    return k -> set.contains(new String(k, java.nio.charset.StandardCharsets.UTF_8));
  }

  @BeforeEach
  void create() throws IOException {
    versions = new VersionSet(dir, new LocalFileSystem(), Options.defaults());
    versions.create();
    versions.logAndApply(new VersionEdit().addFile(1, file(1, "a", "zz"))); // no buffer file in a gap
  }

  private void install(BufferDraft<FileMetaData> d) throws IOException {
    VersionEdit edit = new VersionEdit();
    d.writeTo(edit.bufferSink());
    versions.logAndApply(edit);
  }

  /** Level 1: #10 [c..d] in the older run, #11 [b..e] in the newer, which the trim turns into a marker. */
  private long twoRuns() throws IOException {
    BufferDraft<FileMetaData> d = new BufferDraft<>(versions.current(), versions::newFileNumber);
    d.append(1, file(10, "c", "d"));
    d.append(1, file(11, "b", "e"));
    install(d);
    return versions.current().bufferRuns(1).get(0).id();
  }

  private void trimNewest(long runId, BufferEntry<FileMetaData> marker) throws IOException {
    BufferDraft<FileMetaData> d = new BufferDraft<>(versions.current(), versions::newFileNumber);
    BufferEntry.File<FileMetaData> entry = (BufferEntry.File<FileMetaData>) versions.current().bufferRuns(1).get(0).entries().get(0);
    assertTrue(d.split(1, runId, entry, List.of(marker)));
    d.collectGarbage();
    install(d);
  }

  @Test
  void anOlderFileUnderAFilterMarkerStaysReachable() throws IOException {
    long newest = twoRuns();
    trimNewest(newest, new BufferEntry.Removed<>(b("b"), b("e"), holding("c")));
    List<BufferRun<FileMetaData>> runs = versions.current().bufferRuns(1);
    assertEquals("[filtered[b..e]] [#10[c..d]]", render(runs));
    BufferEntry.Removed<?> m = (BufferEntry.Removed<?>) runs.get(0).entries().get(0);
    assertTrue(m.stops(b("c")), "the dropped file's key ends the walk: the level answers");
    assertFalse(m.stops(b("d")), "a key the file never held goes on to #10, as it went past the file");
  }

  @Test
  void aPlainMarkerOverTheSameRangeHidesTheOlderFileWhereItCoversIt() throws IOException {
    long newest = twoRuns();
    trimNewest(newest, new BufferEntry.Removed<>(b("b"), b("e")));
    assertEquals("", render(versions.current().bufferRuns(1)), "#10 lies wholly under the marker: both go");
    newest = twoRuns();
    trimNewest(newest, new BufferEntry.Removed<>(b("b"), b("e"), holding("c")));
    BufferDraft<FileMetaData> d = new BufferDraft<>(versions.current(), versions::newFileNumber);
    d.collectGarbage();
    install(d);
    assertEquals("[filtered[b..e]] [#10[c..d]]", render(versions.current().bufferRuns(1)),
        "a filter marker over all of #10 would still not hide it");
  }

  @Test
  void aNewMarkerMergedWithAFilterMarkerMakesItPlain() throws IOException {
    long newest = twoRuns();
    trimNewest(newest, new BufferEntry.Removed<>(b("b"), b("e"), holding("c")));
    BufferDraft<FileMetaData> d = new BufferDraft<>(versions.current(), versions::newFileNumber);
    d.markRemoved(1, b("a"), b("c")); // the level changed over a..c: every walk there must stop
    assertEquals("[removed[a..e]] [#10[c..d]]", render(d.runs(1)), "merged into one plain marker");
    d.collectGarbage();
    install(d);
    assertEquals("", render(versions.current().bufferRuns(1)), "the plain marker hides #10, and then goes itself");
  }

  @Test
  void theManifestKeepsAPlainMarker() throws IOException {
    long newest = twoRuns();
    trimNewest(newest, new BufferEntry.Removed<>(b("b"), b("e"), holding("c")));
    versions.close();
    versions = new VersionSet(dir, new LocalFileSystem(), Options.defaults());
    versions.recover();
    assertEquals("[removed[b..e]] [#10[c..d]]", render(versions.current().bufferRuns(1)),
        "after a reopen the marker stops every walk over its range, which is right too");
  }

  @Test
  void clippingAFilterMarkerKeepsItsFilter() {
    KeyFilter f = holding("c");
    BufferEntry<FileMetaData> clipped = new BufferEntry.Removed<FileMetaData>(b("b"), b("e"), f).clip(b("c"), b("z"));
    BufferEntry.Removed<?> m = assertInstanceOf(BufferEntry.Removed.class, clipped);
    assertEquals("filtered[c..e]", m.toString());
    assertTrue(m.filter() == f);
  }

  @Test
  void theTrimsColdUnitsLeaveTheFilesFilter() {
    FileMetaData f = file(12, "a", "h");
    byte[][] upper = {b("b"), b("d"), b("f"), b("h")};
    long[] bytes = {100, 100, 100, 100};
    boolean[] cached = {true, true, false, false};
    KeyFilter filter = holding("a", "c", "e", "g");
    List<BufferEntry<FileMetaData>> pieces = TrimUnits.split(new BufferEntry.File<>(f), upper, bytes, cached, 200, 0.8,
        (lo, hi) -> false, filter);
    assertEquals("[#12[a..d], filtered[d\\x00..h]]", pieces.toString());
    assertTrue(((BufferEntry.Removed<?>) pieces.get(1)).filter() == filter);
  }

  private static String render(List<BufferRun<FileMetaData>> runs) {
    return runs.stream().map(BufferRun<FileMetaData>::entries).map(List::toString).collect(Collectors.joining(" "));
  }
}
