package dev.cairn.version;

import static dev.cairn.version.Files.table;
import static dev.cairn.version.Files.user;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cairn.Options;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

class VersionTest {
  private static Version build(VersionEdit... edits) {
    VersionBuilder builder = new VersionBuilder(Version.empty(v -> { }));
    for (VersionEdit e : edits) {
      builder.apply(e, IllegalArgumentException::new);
    }
    return builder.build(v -> { }, 0, false);
  }

  private static List<Long> numbers(List<FileMetaData> files) {
    return files.stream().map(FileMetaData::number).collect(Collectors.toList());
  }

  @Test
  void paranoidChecksAreOnInTests() {
    assertTrue(Version.PARANOID, "surefire sets cairn.paranoid=true");
  }

  @Test
  void levelZeroIsNewestFirst() {
    Version v = build(new VersionEdit()
        .addFile(0, table(5, "a", "z", 10, 20))
        .addFile(0, table(3, "a", "z", 21, 30))   // older number, newer data (e.g. an L0->L0 output)
        .addFile(0, table(9, "b", "c", 1, 5))
        .addFile(0, table(8, "b", "c", 1, 5)));   // same sequences: higher number first
    assertEquals(List.of(3L, 5L, 9L, 8L), numbers(v.files(0)));
    assertEquals(4, v.sortedRuns(0).size());
    assertEquals(List.of(v.files(0).get(0)), v.sortedRuns(0).get(0));
  }

  @Test
  void higherLevelsAreSortedAndOneRun() {
    Version v = build(new VersionEdit()
        .addFile(1, table(7, "m", "p", 1, 2))
        .addFile(1, table(6, "a", "c", 1, 2))
        .addFile(1, table(8, "x", "z", 1, 2)));
    assertEquals(List.of(6L, 7L, 8L), numbers(v.files(1)));
    assertEquals(List.of(v.files(1)), v.sortedRuns(1));
    assertEquals(List.of(), v.sortedRuns(2));
    assertEquals(List.of(), v.bufferRuns(1));
    assertEquals(Options.MAX_LEVELS, v.numLevels());
    assertEquals(3, v.fileCount(1));
    assertEquals(1006 + 1007 + 1008, v.levelBytes(1));
    assertEquals(java.util.Set.of(6L, 7L, 8L), v.liveFileNumbers());
  }

  @Test
  void aFooterUpdateReplacesALiveTableInPlace() {
    Version base = build(new VersionEdit().addFile(2, table(6, "a", "c", 1, 2)).addFile(2, table(7, "m", "p", 1, 2)));
    FileMetaData appended = new FileMetaData(7, 5000, 3000, 5072, table(7, "k", "q", 1, 9).smallest(),
        table(7, "k", "q", 1, 9).largest(), 40, 1, 9);
    VersionBuilder builder = new VersionBuilder(base);
    builder.apply(new VersionEdit().updateFooter(2, appended), IllegalArgumentException::new);
    Version v = builder.build(x -> { }, 0, false);
    assertEquals(List.of(6L, 7L), numbers(v.files(2)));
    assertEquals(appended, v.files(2).get(1));
    // The table must be live at that level.
    VersionBuilder wrongLevel = new VersionBuilder(base);
    assertThrows(IllegalArgumentException.class,
        () -> wrongLevel.apply(new VersionEdit().updateFooter(3, appended), IllegalArgumentException::new));
  }

  @Test
  void overlappingLevelOneFilesFailTheParanoidCheck() {
    IllegalStateException e = assertThrows(IllegalStateException.class, () -> build(new VersionEdit()
        .addFile(1, table(6, "a", "f", 1, 2))
        .addFile(1, table(7, "e", "k", 1, 2))));
    assertTrue(e.getMessage().contains("overlap"), e.getMessage());
    // Overlap is fine on level 0.
    build(new VersionEdit().addFile(0, table(6, "a", "f", 1, 2)).addFile(0, table(7, "e", "k", 3, 4)));
  }

  @Test
  void overlappingFiles() {
    Version v = build(new VersionEdit()
        .addFile(0, table(1, "c", "f", 1, 2))
        .addFile(0, table(2, "a", "b", 3, 4))
        .addFile(2, table(10, "a", "c", 1, 2))
        .addFile(2, table(11, "e", "g", 1, 2))
        .addFile(2, table(12, "k", "m", 1, 2))
        .addFile(2, table(13, "o", "q", 1, 2)));
    assertEquals(List.of(11L, 12L), numbers(v.overlappingFiles(2, user("f"), user("k"))));
    assertEquals(List.of(11L, 12L), numbers(v.overlappingFiles(2, user("g"), user("l"))));
    assertEquals(List.of(), numbers(v.overlappingFiles(2, user("h"), user("j"))));
    assertEquals(List.of(10L, 11L), numbers(v.overlappingFiles(2, null, user("e"))));
    assertEquals(List.of(13L), numbers(v.overlappingFiles(2, user("n"), null)));
    assertEquals(List.of(10L, 11L, 12L, 13L), numbers(v.overlappingFiles(2, null, null)));
    assertEquals(List.of(), numbers(v.overlappingFiles(2, user("r"), null)));
    assertEquals(List.of(13L), numbers(v.overlappingFiles(2, user("q"), user("q"))));
    // Level 0 keeps its newest-first order and is not widened.
    assertEquals(List.of(2L, 1L), numbers(v.overlappingFiles(0, user("b"), user("c"))));
    assertEquals(List.of(1L), numbers(v.overlappingFiles(0, user("d"), user("z"))));
    assertEquals(List.of(), numbers(v.overlappingFiles(3, null, null)));
  }

  @Test
  void editsDeleteBeforeTheyAdd() {
    Version base = build(new VersionEdit().addFile(1, table(6, "a", "c", 1, 2)));
    VersionBuilder builder = new VersionBuilder(base);
    // A trivial move: the same file leaves level 1 and enters level 2 in one edit.
    builder.apply(new VersionEdit().deleteFile(1, 6).addFile(2, table(6, "a", "c", 1, 2)),
        IllegalArgumentException::new);
    Version moved = builder.build(v -> { }, 0, false);
    assertEquals(0, moved.fileCount(1));
    assertEquals(1, moved.fileCount(2));
    assertEquals(1, base.fileCount(1), "the base is immutable");

    VersionBuilder bad = new VersionBuilder(base);
    assertThrows(IllegalArgumentException.class,
        () -> bad.apply(new VersionEdit().deleteFile(2, 6), IllegalArgumentException::new));
    VersionBuilder duplicate = new VersionBuilder(base);
    assertThrows(IllegalArgumentException.class,
        () -> duplicate.apply(new VersionEdit().addFile(3, table(6, "x", "y", 1, 2)), IllegalArgumentException::new));
  }

  @Test
  void lastUnrefReleasesOnceAndForever() {
    AtomicInteger released = new AtomicInteger();
    Version v = Version.empty(x -> released.incrementAndGet());
    v.ref();
    v.ref();
    v.unref();
    assertEquals(0, released.get());
    v.unref();
    assertEquals(1, released.get());
    assertEquals(-1, v.refCount());
    assertThrows(IllegalStateException.class, v::ref);
    assertThrows(IllegalStateException.class, v::unref);
    assertEquals(1, released.get());
  }

  /** A resource that counts its closes. */
  private static final class Counted implements AutoCloseable {
    final AtomicInteger closes = new AtomicInteger();

    @Override
    public void close() {
      closes.incrementAndGet();
    }
  }

  private static Version twoLevels() {
    return build(new VersionEdit()
        .addFile(0, table(5, "a", "z", 10, 20))
        .addFile(1, table(3, "a", "f", 1, 5))
        .addFile(1, table(4, "g", "m", 1, 5)));
  }

  @Test
  void aVersionKeepsOneResourcePerFileAndClosesItOnRelease() {
    Version v = twoLevels();
    assertEquals(3, v.totalFiles());
    v.ref();
    Counted first = new Counted();
    Counted second = new Counted();
    assertTrue(v.keep(1, 1, first));
    assertFalse(v.keep(1, 1, second), "a filled slot refuses a second resource");
    assertSame(first, v.kept(1, 1));
    assertNull(v.kept(1, 0), "each file has its own slot");
    assertNull(v.kept(0, 0));
    v.unref();
    assertEquals(1, first.closes.get(), "the release closes what the version kept");
    assertEquals(0, second.closes.get(), "a refused resource stays its offerer's");
    assertNull(v.kept(1, 1), "a released version keeps nothing");
  }

  @Test
  void anUnreferencedOrReleasedVersionRefusesToKeep() {
    Version v = twoLevels();
    Counted resource = new Counted();
    assertFalse(v.keep(0, 0, resource), "nobody references the version: nothing would release it");
    v.ref();
    v.unref();
    assertFalse(v.keep(0, 0, resource), "released");
    assertEquals(0, resource.closes.get());
  }

  @Test
  void closeKeptClosesOnceAndSealsTheSlots() {
    Version v = twoLevels();
    v.ref();
    Counted kept = new Counted();
    assertTrue(v.keep(0, 0, kept));
    v.closeKept();
    v.closeKept();
    assertEquals(1, kept.closes.get());
    Counted late = new Counted();
    assertFalse(v.keep(0, 0, late), "a sealed slot refuses");
    assertFalse(v.keep(1, 0, late), "every slot is sealed, filled or not");
    v.unref();
    assertEquals(1, kept.closes.get(), "the release does not close it again");
  }

  @Test
  void aSlotOutsideTheLevelIsRefused() {
    Version v = twoLevels();
    v.ref();
    assertThrows(IndexOutOfBoundsException.class, () -> v.kept(1, 2));
    assertThrows(IndexOutOfBoundsException.class, () -> v.keep(0, 1, new Counted()));
    assertThrows(IndexOutOfBoundsException.class, () -> v.kept(2, 0));
    v.unref();
  }

  /**
   * The read path's compiled code calls get and size on these lists; a list of a class it has not
   * seen deoptimises it (FixedList's comment). So a level's list is of one class whether it holds
   * none, one, two or more files, as is a level's buffer list.
   */
  @Test
  void aLevelsListIsOfOneClassWhateverItsSize() {
    Version empty = build();
    Class<?> listClass = empty.files(0).getClass();
    VersionEdit edit = new VersionEdit();
    for (int n = 1; n <= 4; n++) {
      edit.addFile(0, table(n, "a", "z", 10L * n, 10L * n + 5));
      Version v = build(edit);
      assertEquals(n, v.fileCount(0));
      assertSame(listClass, v.files(0).getClass(), n + " files");
      assertSame(listClass, v.files(1).getClass(), "an empty level beside " + n + " files");
      assertSame(listClass, v.bufferRuns(0).getClass(), "the buffer's runs");
    }
    assertThrows(UnsupportedOperationException.class, () -> empty.files(0).add(null));
  }
}
