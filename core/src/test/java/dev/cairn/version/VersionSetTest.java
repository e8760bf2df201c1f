package dev.cairn.version;

import static dev.cairn.version.Files.key;
import static dev.cairn.version.Files.table;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cairn.CorruptionException;
import dev.cairn.Options;
import dev.cairn.fs.fake.FaultInjectingFileSystem;
import dev.cairn.fs.FileNames;
import dev.cairn.fs.IoTag;
import dev.cairn.fs.LocalFileSystem;
import dev.cairn.testkit.Seeds;
import dev.cairn.util.ByteSink;
import dev.cairn.wal.LogWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class VersionSetTest {
  @TempDir Path dir;
  private FaultInjectingFileSystem fs;
  private final Options options = Options.defaults();

  @BeforeEach
  void setUp() {
    fs = new FaultInjectingFileSystem(new LocalFileSystem());
  }

  private VersionSet open() {
    return new VersionSet(dir, fs, options);
  }

  private VersionSet created() throws IOException {
    VersionSet vs = open();
    vs.create();
    return vs;
  }

  private VersionSet recovered() throws IOException {
    VersionSet vs = open();
    vs.recover();
    return vs;
  }

  private Path manifest(long number) {
    return dir.resolve(FileNames.manifest(number));
  }

  private void writeCurrent(String content) throws IOException {
    Files.write(dir.resolve(FileNames.CURRENT), content.getBytes(StandardCharsets.ISO_8859_1));
  }

  private static void assertSameShape(VersionSet expected, VersionSet actual) {
    for (int level = 0; level < Options.MAX_LEVELS; level++) {
      assertEquals(expected.current().files(level), actual.current().files(level), "level " + level);
      assertArrayEquals(expected.compactPointer(level), actual.compactPointer(level), "pointer " + level);
    }
    assertEquals(expected.lastSequence(), actual.lastSequence());
    assertEquals(expected.logNumber(), actual.logNumber());
    assertTrue(actual.nextFileNumber() >= expected.nextFileNumber());
  }

  @Test
  void createThenRecover() throws IOException {
    VersionSet vs = open();
    assertFalse(vs.exists());
    vs.create();
    assertTrue(vs.exists());
    assertEquals(1, vs.manifestFileNumber());
    assertEquals("MANIFEST-000001\n", Files.readString(dir.resolve(FileNames.CURRENT)));
    vs.close();

    VersionSet back = recovered();
    assertEquals(1, back.manifestFileNumber());
    assertEquals(0, back.lastSequence());
    assertEquals(0, back.logNumber());
    assertEquals(2, back.nextFileNumber());
    assertTrue(back.liveFileNumbers().isEmpty());
    back.startNewManifest();
    assertEquals(2, back.manifestFileNumber());
    assertEquals("MANIFEST-000002\n", Files.readString(dir.resolve(FileNames.CURRENT)));
    assertTrue(Files.exists(manifest(1)), "the old manifest is the engine's to delete");
    assertEquals(3, back.newFileNumber());
    back.close();
  }

  /** A seeded random history of flushes, compactions and moves survives recovery unchanged. */
  @Test
  void manyEditsThenRecoverGiveTheSameShape() throws IOException {
    long seed = Seeds.seed();
    java.util.Random random = new java.util.Random(seed);
    try {
      VersionSet vs = created();
      long sequence = 0;
      for (int i = 0; i < 300; i++) {
        VersionEdit edit = new VersionEdit();
        Version v = vs.current();
        int action = random.nextInt(4);
        if (action == 0 || v.fileCount(0) == 0) {
          // flush: a new log, then an L0 table of the old memtable
          long log = vs.newFileNumber();
          long number = vs.newFileNumber();
          long lo = sequence + 1;
          sequence += 1 + random.nextInt(100);
          vs.setLastSequence(sequence);
          edit.setLogNumber(log).addFile(0, table(number, rangeOf(number), rangeOf(number) + "z", lo, sequence));
        } else if (action == 1) {
          // compaction of one L0 table into a fresh table at a random level (ranges never collide)
          FileMetaData f = v.files(0).get(random.nextInt(v.fileCount(0)));
          long number = vs.newFileNumber();
          int level = 1 + random.nextInt(Options.MAX_LEVELS - 1);
          edit.deleteFile(0, f.number()).addFile(level, table(number, rangeOf(f.number()), rangeOf(f.number()) + "z",
              f.smallestSequence(), f.largestSequence()));
          edit.setCompactPointer(level, key(rangeOf(f.number()), 0));
        } else {
          // trivial move down one level, if there is something to move
          int level = 1 + random.nextInt(Options.MAX_LEVELS - 2);
          if (v.fileCount(level) == 0) {
            continue;
          }
          FileMetaData f = v.files(level).get(random.nextInt(v.fileCount(level)));
          edit.deleteFile(level, f.number()).addFile(level + 1, f);
        }
        vs.logAndApply(edit);
        if (i == 150) {
          vs.startNewManifest(); // a manifest switch in the middle of the history
        }
      }
      vs.close();
      VersionSet back = recovered();
      assertSameShape(vs, back);
      assertEquals(vs.current().toString(), back.current().toString());
      back.startNewManifest();
      back.close();
      assertSameShape(vs, recovered());
    } catch (AssertionError | RuntimeException e) {
      throw new AssertionError("failed with -Dcairn.seed=" + seed, e);
    }
  }

  /** Fixed-width, so that the ranges [kN, kNz] of different files never overlap. */
  private static String rangeOf(long number) {
    return String.format("k%09d", number);
  }

  @Test
  void tornTailOfTheManifestIsIgnored() throws IOException {
    VersionSet vs = created();
    vs.logAndApply(new VersionEdit().addFile(0, table(5, "a", "c", 1, 2)));
    long before = fs.size(manifest(1));
    vs.logAndApply(new VersionEdit().addFile(0, table(6, "d", "f", 3, 4)));
    long after = fs.size(manifest(1));
    vs.close();
    byte[] full = Files.readAllBytes(manifest(1));
    for (long cut = before + 1; cut < after; cut++) {
      Files.write(manifest(1), java.util.Arrays.copyOf(full, (int) cut));
      VersionSet back = recovered();
      assertEquals(List.of(5L), back.current().files(0).stream().map(FileMetaData::number).toList(), "cut " + cut);
      back.close();
    }
    // Zeros after the last intact edit (an extended, unwritten tail) are ignored too.
    Files.write(manifest(1), java.util.Arrays.copyOf(full, (int) after + 100));
    assertEquals(2, recovered().current().fileCount(0));
  }

  @Test
  void damageInTheMiddleOfTheManifestIsCorruptionWithFileAndOffset() throws IOException {
    VersionSet vs = created();
    long offset = fs.size(manifest(1));
    vs.logAndApply(new VersionEdit().addFile(0, table(5, "a", "c", 1, 2)));
    vs.logAndApply(new VersionEdit().addFile(0, table(6, "d", "f", 3, 4)));
    vs.close();
    byte[] bytes = Files.readAllBytes(manifest(1));
    bytes[(int) offset + 10] ^= 0x40;
    Files.write(manifest(1), bytes);
    CorruptionException e = assertThrows(CorruptionException.class, this::recovered);
    assertEquals(manifest(1).toString(), e.file());
    assertEquals(offset, e.offset());
    assertTrue(e.reason().contains("checksum mismatch"), e.reason());
  }

  @Test
  void currentMissingGarbageOrDangling() throws IOException {
    created().close();
    String current = dir.resolve(FileNames.CURRENT).toString();
    Files.delete(dir.resolve(FileNames.CURRENT));
    assertFalse(open().exists());
    CorruptionException missing = assertThrows(CorruptionException.class, this::recovered);
    assertEquals(current, missing.file());

    for (String garbage : new String[] {"", "hello\n", "MANIFEST-000001", "MANIFEST-000001\nMANIFEST-000001\n",
        "MANIFEST-1\n", "\u00ff\u0000\n", "000001.log\n", "x".repeat(1000)}) {
      writeCurrent(garbage);
      CorruptionException e = assertThrows(CorruptionException.class, this::recovered, garbage);
      assertEquals(current, e.file(), garbage);
    }
    writeCurrent("MANIFEST-000099\n");
    CorruptionException dangling = assertThrows(CorruptionException.class, this::recovered);
    assertEquals(current, dangling.file());
    assertTrue(dangling.reason().contains("MANIFEST-000099"), dangling.reason());

    writeCurrent("MANIFEST-000001\n");
    recovered().close();
  }

  @Test
  void newerFormatVersionIsRejectedWithAClearMessage() throws IOException {
    try (LogWriter writer = new LogWriter(fs.create(manifest(3), IoTag.MANIFEST))) {
      writer.addRecord(new ByteSink().putVarint32(1).putVarint32(7).putVarint32(200).toByteArray());
    }
    writeCurrent("MANIFEST-000003\n");
    NewerFormatVersionException e = assertThrows(NewerFormatVersionException.class, this::recovered);
    assertEquals("database format version 7 is newer than this Cairn supports (max "
        + VersionEditCodec.CURRENT_FORMAT_VERSION + ")", e.getMessage());
  }

  @Test
  void manifestWithoutEditsOrFormatVersionIsCorruption() throws IOException {
    fs.create(manifest(3), IoTag.MANIFEST).close();
    writeCurrent("MANIFEST-000003\n");
    assertThrows(CorruptionException.class, this::recovered);
    try (LogWriter writer = new LogWriter(fs.create(manifest(3), IoTag.MANIFEST))) {
      writer.addRecord(VersionEditCodec.encode(new VersionEdit().setLogNumber(1).setNextFileNumber(4).setLastSequence(0)));
    }
    CorruptionException e = assertThrows(CorruptionException.class, this::recovered);
    assertTrue(e.reason().contains("format version"), e.reason());
  }

  @Test
  void referencedVersionsKeepDeletedFilesLive() throws IOException {
    VersionSet vs = created();
    AtomicInteger releases = new AtomicInteger();
    vs.setVersionReleasedListener(releases::incrementAndGet);
    vs.logAndApply(new VersionEdit().addFile(0, table(5, "a", "c", 1, 2)));
    Version pinned = vs.refCurrent();
    releases.set(0);
    vs.logAndApply(new VersionEdit().deleteFile(0, 5).addFile(1, table(6, "a", "c", 1, 2)));
    assertEquals(0, releases.get(), "the pinned version is not released");
    assertEquals(java.util.Set.of(5L, 6L), vs.liveFileNumbers());
    assertEquals(2, vs.liveVersionCount());
    pinned.unref();
    assertEquals(1, releases.get());
    assertEquals(java.util.Set.of(6L), vs.liveFileNumbers());
    assertEquals(1, vs.liveVersionCount());
    vs.close();
  }

  @Test
  void failedManifestSyncInstallsNothing() throws IOException {
    VersionSet vs = created();
    vs.logAndApply(new VersionEdit().addFile(0, table(5, "a", "c", 1, 2)));
    Version before = vs.current();
    fs.failNextSync(name -> name.startsWith("MANIFEST"));
    assertThrows(IOException.class, () -> vs.logAndApply(new VersionEdit().addFile(0, table(9, "d", "f", 3, 4))));
    assertEquals(before, vs.current());
    assertTrue(vs.liveFileNumbers().contains(9L), "the failed edit may be durable: keep its files");
    // The abandoned manifest is never appended to again: the next edit starts a new one.
    vs.logAndApply(new VersionEdit().addFile(0, table(10, "g", "h", 5, 6)));
    assertNotEquals(1, vs.manifestFileNumber());
    vs.close();
    VersionSet back = recovered();
    assertEquals(List.of(10L, 5L), back.current().files(0).stream().map(FileMetaData::number).toList());
  }

  @Test
  void failedRenameKeepsTheOldManifest() throws IOException {
    VersionSet vs = created();
    fs.failRenames(true);
    assertThrows(IOException.class, vs::startNewManifest);
    fs.failRenames(false);
    assertEquals(1, vs.manifestFileNumber());
    vs.logAndApply(new VersionEdit().addFile(0, table(5, "a", "c", 1, 2)));
    vs.close();
    VersionSet back = recovered();
    assertEquals(1, back.manifestFileNumber());
    assertEquals(1, back.current().fileCount(0));
    assertFalse(Files.exists(dir.resolve(FileNames.temp(2))), "the temporary CURRENT is cleaned up");
  }

  @Test
  void failedDirectorySyncAfterTheRenameAdoptsTheNewManifest() throws IOException {
    VersionSet vs = created();
    fs.failDirectorySyncsAfterNextRename();
    assertThrows(IOException.class, vs::startNewManifest);
    fs.failDirectorySyncs(false);
    // CURRENT already names the new manifest: the engine must not treat it as obsolete.
    assertEquals(2, vs.manifestFileNumber());
    assertEquals(2, CurrentFile.read(fs, dir));
    vs.logAndApply(new VersionEdit().addFile(0, table(5, "a", "c", 1, 2)));
    vs.close();
    assertEquals(1, recovered().current().fileCount(0));
  }

  @Test
  void failedDirectorySyncBeforeTheRenameKeepsTheOldManifest() throws IOException {
    VersionSet vs = created();
    fs.failDirectorySyncs(true); // the new manifest's name is not durable: CURRENT must not name it
    assertThrows(IOException.class, vs::startNewManifest);
    fs.failDirectorySyncs(false);
    assertEquals(1, CurrentFile.read(fs, dir));
    vs.logAndApply(new VersionEdit().addFile(0, table(5, "a", "c", 1, 2)));
    vs.close();
    assertEquals(1, recovered().current().fileCount(0));
  }

  @Test
  void logAndApplyAfterRecoverStartsAFreshManifest() throws IOException {
    VersionSet vs = created();
    vs.logAndApply(new VersionEdit().addFile(0, table(5, "a", "c", 1, 2)));
    vs.close();
    long oldSize = fs.size(manifest(1));
    VersionSet back = recovered();
    back.logAndApply(new VersionEdit().addFile(0, table(back.newFileNumber(), "d", "f", 3, 4)));
    assertEquals(oldSize, fs.size(manifest(1)), "a recovered manifest is never appended to");
    assertTrue(back.manifestFileNumber() > 5);
    back.close();
    assertEquals(2, recovered().current().fileCount(0));
  }

  @Test
  void fileNumbersAreNeverReused() throws IOException {
    VersionSet vs = created();
    List<Long> used = new ArrayList<>();
    for (int i = 0; i < 5; i++) {
      used.add(vs.newFileNumber());
    }
    vs.logAndApply(new VersionEdit().setLogNumber(used.get(4)));
    vs.markFileNumberUsed(100);
    assertEquals(101, vs.newFileNumber());
    vs.close();
    VersionSet back = recovered();
    back.startNewManifest();
    assertTrue(back.manifestFileNumber() > used.get(4));
    assertTrue(back.newFileNumber() > back.manifestFileNumber());
    assertEquals(used.get(4), back.logNumber());
    assertNull(back.compactPointer(3));
  }

  @Test
  void editsThatDoNotFitAreRejectedBeforeAnythingIsWritten() throws IOException {
    VersionSet vs = created();
    long size = fs.size(manifest(1));
    assertThrows(IllegalArgumentException.class, () -> vs.logAndApply(new VersionEdit().deleteFile(1, 42)));
    assertThrows(IllegalArgumentException.class, () -> vs.logAndApply(new VersionEdit().setFormatVersion(1)));
    assertThrows(IllegalArgumentException.class,
        () -> vs.logAndApply(new VersionEdit().setLogNumber(vs.nextFileNumber() + 5)));
    // Overlapping level-1 files trip the paranoid check.
    assertThrows(IllegalStateException.class, () -> vs.logAndApply(new VersionEdit()
        .addFile(1, table(7, "a", "f", 1, 2)).addFile(1, table(8, "e", "k", 1, 2))));
    assertEquals(size, fs.size(manifest(1)));
    vs.close();
  }

  /** Readers pin and release versions on their own threads while edits install new ones. */
  @Test
  void concurrentRefAndUnrefLeaveOnlyTheCurrentVersionLive() throws Exception {
    VersionSet vs = created();
    java.util.concurrent.atomic.AtomicBoolean stop = new java.util.concurrent.atomic.AtomicBoolean();
    java.util.concurrent.atomic.AtomicReference<Throwable> failure = new java.util.concurrent.atomic.AtomicReference<>();
    List<Thread> readers = new ArrayList<>();
    for (int t = 0; t < 4; t++) {
      Thread reader = new Thread(() -> {
        try {
          while (!stop.get()) {
            Version v = vs.refCurrent();
            // While pinned, every file of the version is live.
            for (FileMetaData f : v.files(0)) {
              if (!vs.liveFileNumbers().contains(f.number())) {
                throw new AssertionError("pinned file #" + f.number() + " is not live");
              }
            }
            v.unref();
          }
        } catch (Throwable e) {
          failure.compareAndSet(null, e);
        }
      }, "reader-" + t);
      reader.start();
      readers.add(reader);
    }
    long previous = -1;
    for (int i = 0; i < 200; i++) {
      long number = vs.newFileNumber();
      VersionEdit edit = new VersionEdit().addFile(0, table(number, "a", "b", 2L * i + 1, 2L * i + 2));
      if (previous >= 0) {
        edit.deleteFile(0, previous);
      }
      vs.logAndApply(edit);
      previous = number;
    }
    stop.set(true);
    for (Thread reader : readers) {
      reader.join();
    }
    if (failure.get() != null) {
      throw new AssertionError(failure.get());
    }
    assertEquals(1, vs.liveVersionCount());
    assertEquals(java.util.Set.of(previous), vs.liveFileNumbers());
    vs.close();
  }
}
