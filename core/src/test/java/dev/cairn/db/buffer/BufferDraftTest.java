package dev.cairn.db.buffer;

import dev.cairn.compaction.buffer.BufferDraft;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cairn.Options;
import dev.cairn.fs.LocalFileSystem;
import dev.cairn.key.InternalKey;
import dev.cairn.key.ValueType;
import dev.cairn.model.BufferEntry;
import dev.cairn.model.BufferRun;
import dev.cairn.version.FileMetaData;
import dev.cairn.version.Version;
import dev.cairn.version.VersionEdit;
import dev.cairn.version.VersionSet;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The buffer's operations on a version (no engine): where appends and removed markers land, what
 * garbage collection drops, and that the edits they write replay to the same buffer on reopen.
 * Tables render as {@code id:[entries]}, files as {@code #n[a..b]}, markers as {@code removed[a..b]}.
 */
public class BufferDraftTest {
  @TempDir Path dir;
  private VersionSet versions;

  @BeforeEach
  void create() throws IOException {
    versions = new VersionSet(dir, new LocalFileSystem(), Options.defaults());
    versions.create();
  }

  static FileMetaData file(long number, String smallest, String largest) {
    byte[] lo = InternalKey.encode(smallest.getBytes(StandardCharsets.UTF_8), number, ValueType.VALUE);
    byte[] hi = InternalKey.encode(largest.getBytes(StandardCharsets.UTF_8), number, ValueType.VALUE);
    return FileMetaData.ofNewTable(number, 1000, 900, lo, hi, 10, number, number);
  }

  static byte[] b(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  private BufferDraft<FileMetaData> draft() {
    return new BufferDraft<>(versions.current(), versions::newFileNumber);
  }

  private void install(BufferDraft<FileMetaData> draft) throws IOException {
    VersionEdit edit = new VersionEdit();
    draft.writeTo(edit.bufferSink());
    versions.logAndApply(edit);
  }

  private String render(int level) {
    return render(versions.current(), level);
  }

  private static String render(Version v, int level) {
    return v.bufferRuns(level).stream().map(BufferRun<FileMetaData>::entries).map(List::toString).collect(Collectors.joining(" "));
  }

  @Test
  void appendsShareTheNewestTableUntilAFileOverlaps() throws IOException {
    BufferDraft<FileMetaData> d = draft();
    d.append(2, file(10, "a", "c"));
    d.append(2, file(11, "e", "g"));
    d.append(2, file(12, "f", "h")); // overlaps #11: newer data goes to a newer table
    install(d);
    assertEquals("[#12[f..h]] [#10[a..c], #11[e..g]]", render(2));
  }

  /** A level-1 file over the whole key space, so that no buffer file of L1 lies in a gap. */
  private void wholeLevel1() throws IOException {
    versions.logAndApply(new VersionEdit().addFile(1, file(1, "a", "zz")));
  }

  @Test
  void aMarkerJoinsTheNewestTableAndMergesItsMarkersButNeverOverlapsAFileThere() throws IOException {
    wholeLevel1();
    BufferDraft<FileMetaData> d = draft();
    d.append(1, file(10, "a", "z"));
    d.append(1, file(11, "m", "p")); // newest table now holds #11 alone
    d.markRemoved(1, b("b"), b("c"));
    d.markRemoved(1, b("c"), b("e")); // overlaps the first marker: one marker b..e
    d.markRemoved(1, b("n"), b("o")); // overlaps #11 of the newest table: a newer table
    d.collectGarbage();
    install(d);
    assertEquals("[removed[n..o]] [removed[b..e], #11[m..p]] [#10[a..z]]", render(1));
  }

  @Test
  void aMarkerOverNoBufferFileIsNotWritten() throws IOException {
    BufferDraft<FileMetaData> d = draft();
    d.append(1, file(10, "a", "c"));
    d.markRemoved(1, b("x"), b("y"));
    d.markRemoved(3, b("a"), b("z")); // level 3 has no buffer at all
    install(d);
    assertEquals("[#10[a..c]]", render(1));
    assertEquals("", render(3));
  }

  @Test
  void aTrimmedFileLeavesAMarkerOnlyWhileAnOlderFileOverlapsIt() throws IOException {
    wholeLevel1();
    BufferDraft<FileMetaData> d = draft();
    d.append(1, file(10, "a", "f"));
    d.append(1, file(11, "d", "h"));
    d.append(1, file(12, "x", "y")); // joins #11's table (no overlap)
    install(d);
    long newest = versions.current().bufferRuns(1).get(0).id();
    d = draft();
    d.dropFile(1, newest, 11); // #10 below still overlaps d..h: the marker must hide it there
    d.dropFile(1, newest, 12); // nothing older overlaps x..y: the marker is garbage
    d.collectGarbage();
    install(d);
    assertEquals("[removed[d..h]] [#10[a..f]]", render(1));
  }

  @Test
  void aFileEveryKeyOfWhichNewerMarkersHideIsDropped() throws IOException {
    wholeLevel1();
    BufferDraft<FileMetaData> d = draft();
    d.append(1, file(10, "c", "m"));
    d.append(1, file(11, "b", "e"));
    install(d);
    d = draft();
    d.markRemoved(1, b("a"), b("f")); // hides #11 (newest table, overlapped): new table
    d.markRemoved(1, b("f"), b("n")); // merges with a..f: a..n hides #10 and #11
    assertEquals(2, d.collectGarbage());
    install(d);
    assertEquals("", render(1), "markers with no older file left are dropped too");
  }

  @Test
  void adjoiningMarkersOfSeveralNewerTablesHideAFileTogether() throws IOException {
    wholeLevel1();
    BufferDraft<FileMetaData> d = draft();
    d.append(1, file(10, "c", "m"));
    d.append(1, file(11, "a", "d"));  // table 2
    d.markRemoved(1, b("a"), b("g")); // table 3 (overlaps #11)
    d.append(1, file(12, "f", "z"));  // table 4 (overlaps the marker)
    d.markRemoved(1, b("g"), b("m")); // table 5 (overlaps #12)
    d.collectGarbage();
    install(d);
    String rendered = render(1);
    assertTrue(!rendered.contains("#10") && !rendered.contains("#11"), rendered);
    assertTrue(rendered.contains("#12"), rendered);
  }

  @Test
  void theBufferSurvivesAReopenAndTheNewManifestsSnapshot() throws IOException {
    BufferDraft<FileMetaData> d = draft();
    d.append(1, file(10, "a", "c"));
    d.append(1, file(11, "b", "d"));
    d.markRemoved(1, b("a"), b("a"));
    d.append(4, file(12, "k", "l"));
    install(d);
    String before = versions.current().toString();
    versions.close();
    for (int reopen = 0; reopen < 2; reopen++) { // the second replays the snapshot edit
      versions = new VersionSet(dir, new LocalFileSystem(), Options.defaults());
      versions.recover();
      versions.startNewManifest();
      assertEquals(before, versions.current().toString());
      assertTrue(versions.liveFileNumbers().containsAll(List.of(10L, 11L, 12L)), "buffer files are live");
      long maxTableId = versions.current().bufferRuns(1).get(0).id();
      assertTrue(versions.nextFileNumber() > maxTableId, "table ids are never handed out again");
      versions.close();
    }
  }

  @Test
  void coveringFindsTheEntryOfAKey() throws IOException {
    BufferDraft<FileMetaData> d = draft();
    d.append(1, file(10, "b", "d"));
    d.append(1, file(11, "f", "h"));
    install(d);
    BufferRun<FileMetaData> t = versions.current().bufferRuns(1).get(0);
    assertNull(t.covering(b("a")));
    assertEquals(10, ((BufferEntry.File) t.covering(b("c"))).meta().number());
    assertNull(t.covering(b("e")));
    assertEquals(11, ((BufferEntry.File) t.covering(b("h"))).meta().number());
    assertNull(t.covering(b("i")));
  }

  /** Installs the given level files with no buffer change. */
  private void levels(VersionEdit edit) throws IOException {
    versions.logAndApply(edit);
  }

  /** The edit of a compaction, with its buffer part added as the engine does. */
  private void compaction(VersionEdit edit, int in, int out, boolean append) throws IOException {
    compaction(edit, in, out, append, false);
  }

  private void compaction(VersionEdit edit, int in, int out, boolean append, boolean carry) throws IOException {
    BufferDraft<FileMetaData> d = new BufferDraft<>(versions.current(), edit.levelChanges(versions.current()), versions::newFileNumber);
    d.applyCompaction(in, out, append, carry);
    d.collectGarbage();
    d.writeTo(edit.bufferSink());
    versions.logAndApply(edit);
  }

  @Test
  void anAppendingMergeAppendsItsInputsAndTargetsAndMarksTheInputLevelOnly() throws IOException {
    levels(new VersionEdit().addFile(1, file(10, "a", "c")).addFile(2, file(11, "b", "d")));
    BufferDraft<FileMetaData> seed = draft(); // level 1 holds an older buffer file over the input's range
    seed.append(1, file(5, "a", "b"));
    install(seed);
    compaction(new VersionEdit().deleteFile(1, 10).deleteFile(2, 11).addFile(2, file(12, "a", "d")), 1, 2, true);
    assertEquals("[#10[a..c]] [#11[b..d]]", render(2), "the input joined L2's buffer, the target below it");
    assertEquals("", render(1), "L1's data left: the marker hid #5 and then went itself");
  }

  @Test
  void aMergesTargetsGoBelowTheOlderBufferRunsWhoseFilesAlreadyServeTheirKeys() throws IOException {
    levels(new VersionEdit().addFile(1, file(10, "a", "c")).addFile(2, file(11, "b", "f"))
        .addFile(2, file(14, "x", "z")));
    BufferDraft<FileMetaData> seed = draft();
    seed.append(2, file(6, "d", "e")); // an earlier input: it serves d..e now, maybe cached
    seed.append(2, file(7, "e", "g")); // overlaps #6: a newer table
    install(seed);
    compaction(new VersionEdit().deleteFile(1, 10).deleteFile(2, 11).addFile(2, file(12, "a", "f")), 1, 2, true);
    assertEquals("[#10[a..c], #7[e..g]] [#6[d..e]] [#11[b..f]]", render(2),
        "the target answers only where the walk used to fall back to the level");
    // A second merge's target overlaps #11: it goes into a new table below it.
    levels(new VersionEdit().addFile(1, file(15, "a", "b")));
    compaction(new VersionEdit().deleteFile(1, 15).deleteFile(2, 12).addFile(2, file(16, "a", "f")), 1, 2, true);
    assertEquals("[#15[a..b]] [#10[a..c], #7[e..g]] [#6[d..e]] [#11[b..f]] [#12[a..f]]", render(2));
  }

  @Test
  void aTrivialMoveAppendsNothingAndMarksBothLevels() throws IOException {
    levels(new VersionEdit().addFile(1, file(10, "m", "p")).addFile(1, file(11, "x", "y"))
        .addFile(2, file(12, "a", "c")).addFile(2, file(13, "s", "z")));
    BufferDraft<FileMetaData> seed = draft();
    seed.append(1, file(5, "a", "z"));  // stale data of L1 in m..p once #10 leaves
    seed.append(2, file(6, "a", "z"));  // stale data of L2 in m..p once #10 arrives
    install(seed);
    compaction(new VersionEdit().deleteFile(1, 10).addFile(2, file(10, "m", "p")), 1, 2, false);
    assertEquals("[removed[m..p]] [#5[a..z]]", render(1));
    assertEquals("[removed[m..p]] [#6[a..z]]", render(2));
  }

  @Test
  void aBufferFileIsDroppedOnceEachLevelFileUnderItIsHiddenByNewerMarkers() throws IOException {
    levels(new VersionEdit().addFile(1, file(10, "c", "d")).addFile(1, file(11, "m", "n")));
    BufferDraft<FileMetaData> d = draft();
    d.append(1, file(5, "a", "z"));
    d.markRemoved(1, b("c"), b("d")); // a new table (overlaps #5)
    d.collectGarbage();
    install(d);
    assertEquals("[removed[c..d]] [#5[a..z]]", render(1), "#5 still answers for L1's m..n");
    d = draft();
    d.markRemoved(1, b("m"), b("n"));
    // Every key of a..z is now hidden, or outside L1's files (where L1, and so the walk, has
    // nothing): no walk can end at #5.
    assertEquals(1, d.collectGarbage());
    install(d);
    assertEquals("", render(1));
  }

  @Test
  void aFileOutsideTheLevelThatHidesAnOlderFileBecomesAMarkerSoItsTombstonesKeepHiding() throws IOException {
    levels(new VersionEdit().addFile(1, file(1, "a", "c")));
    BufferDraft<FileMetaData> d = draft();
    d.append(1, file(10, "a", "z")); // still answers for L1's a..c; holds an old value of m
    d.append(1, file(11, "m", "m")); // a newer table: say a tombstone of m, which L1 lost
    d.collectGarbage();
    install(d);
    // #11 answers nothing (L1 has no file over m), but without it a walk over m would reach #10
    // as soon as an appending merge puts a file over m into L1 (it writes no marker on L1).
    assertEquals("[removed[m..m]] [#10[a..z]]", render(1));
    d = draft();
    d.markRemoved(1, b("a"), b("c")); // #10 goes: the marker over m has nothing older to hide
    d.collectGarbage();
    install(d);
    assertEquals("", render(1));
  }

  @Test
  void garbageCollectionSeesALevelFileWidenedByABlockAppend() throws IOException {
    levels(new VersionEdit().addFile(1, file(1, "a", "c")));
    BufferDraft<FileMetaData> seed = draft(); // a leftover buffer, then the database reopened with BLOCK
    seed.append(1, file(10, "e", "f"));
    install(seed);
    // A block append widens #1 to a..p in place: #10 now lies under a level file, unhidden, and
    // still answers walks there. (The block compaction's own markers would hide it; this checks
    // the level the collection judges against, on an edit that has only the footer update.)
    VersionEdit edit = new VersionEdit().updateFooter(1, file(1, "a", "p"));
    BufferDraft<FileMetaData> d = new BufferDraft<>(versions.current(), edit.levelChanges(versions.current()), versions::newFileNumber);
    d.markRemoved(1, b("x"), b("y")); // touches level 1 (no buffer file there: no marker)
    assertEquals(0, d.collectGarbage());
    d.writeTo(edit.bufferSink());
    versions.logAndApply(edit);
    assertEquals("[#10[e..f]]", render(1));
  }

  @Test
  void aFrozenMergeMarksItsTargetsAndOutputsInsteadOfAppending() throws IOException {
    levels(new VersionEdit().addFile(1, file(10, "c", "e")).addFile(2, file(11, "a", "d"))
        .addFile(2, file(12, "f", "h")));
    BufferDraft<FileMetaData> seed = draft();
    seed.append(2, file(6, "a", "z"));
    install(seed);
    compaction(new VersionEdit().deleteFile(1, 10).deleteFile(2, 11).addFile(2, file(13, "a", "e")), 1, 2, false);
    assertEquals("[removed[a..e]] [#6[a..z]]", render(2), "f..h did not change: #6 still serves it");
  }

  @Test
  void overlappingL0InputsLandOldestFirstSoTheNewerIsInTheNewerTable() throws IOException {
    levels(new VersionEdit().addFile(0, file(21, "a", "k")).addFile(0, file(20, "c", "m")));
    compaction(new VersionEdit().deleteFile(0, 20).deleteFile(0, 21).addFile(1, file(22, "a", "m")), 0, 1, true);
    assertEquals("[#21[a..k]] [#20[c..m]]", render(1), "#21 is newer (sequence 21)");
  }

  @Test
  void anAppendedFileCarriesItsLevelsBufferOverItsRangeClippedAndPruned() throws IOException {
    levels(new VersionEdit().addFile(1, file(10, "c", "m")).addFile(1, file(11, "p", "z"))
        .addFile(2, file(12, "a", "z")));
    BufferDraft<FileMetaData> seed = draft();
    seed.append(1, file(5, "a", "f"));  // reaches below #10's range: clipped to c..f
    seed.append(1, file(6, "h", "r"));  // straddles #10 and #11: h..m comes along, the rest stays
    seed.markRemoved(1, b("e"), b("e")); // a newer table: a marker over #5 comes along too
    seed.append(1, file(7, "x", "y"));  // outside #10's range: stays
    install(seed);
    assertEquals("[removed[e..e], #7[x..y]] [#5[a..f], #6[h..r]]", render(1));
    compaction(new VersionEdit().deleteFile(1, 10).deleteFile(2, 12).addFile(2, file(13, "a", "z")), 1, 2, true, true);
    assertEquals("[#10[c..m]+carried{[removed[e..e]] [#5[c..f], #6[h..m]]}] [#12[a..z]]", render(2),
        "the walk reads #10's range through the buffer it had in L1");
    assertEquals("[removed[c..m], #7[x..y]] [#6[h..r]]", render(1), "L1 keeps what serves #11's range");
    // The carried buffer is part of the entry: it replays from the manifest and its snapshot.
    String before = render(2);
    versions.close();
    for (int reopen = 0; reopen < 2; reopen++) {
      versions = new VersionSet(dir, new LocalFileSystem(), Options.defaults());
      versions.recover();
      versions.startNewManifest();
      assertEquals(before, render(2));
      assertTrue(versions.liveFileNumbers().containsAll(List.of(5L, 6L, 10L, 12L)),
          "carried files stay on disk: " + versions.liveFileNumbers());
      versions.close();
    }
    versions = new VersionSet(dir, new LocalFileSystem(), Options.defaults());
    versions.recover();
  }

  @Test
  void aCarriedBufferOfMarkersAloneIsNotKept() throws IOException {
    levels(new VersionEdit().addFile(1, file(10, "c", "m")).addFile(1, file(11, "p", "z"))
        .addFile(2, file(12, "a", "z")));
    BufferDraft<FileMetaData> seed = draft();
    seed.append(1, file(6, "n", "r"));  // overlaps nothing of #10's range
    seed.markRemoved(1, b("d"), b("q")); // its marker reaches into #10's range
    install(seed);
    compaction(new VersionEdit().deleteFile(1, 10).deleteFile(2, 12).addFile(2, file(13, "a", "z")), 1, 2, true, true);
    assertEquals("[#10[c..m]] [#12[a..z]]", render(2), "no file under the marker: nothing to carry");
  }
}
