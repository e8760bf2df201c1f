package dev.cairn.db;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cairn.Cairn;
import dev.cairn.Options;
import dev.cairn.fs.FileNames;
import dev.cairn.version.FileMetaData;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A crashed process can leave files numbered beyond the last number its manifest recorded: a
 * table it was writing, a temporary file. Recovery must not hand those numbers out again: the
 * obsolete-file collector deletes by name without the mutex, on the promise that a number once
 * obsolete stays obsolete, so a recovered table reusing a leftover's number could be deleted
 * under the new version (found by the crash test: "opening table …: NoSuchFileException").
 */
class OrphanFileNumberTest {
  @TempDir Path dir;

  private static Options options() {
    return Options.builder().memtableBytes(64 << 10).build();
  }

  @Test
  void recoveryNeverReusesTheNumberOfALeftoverFile() throws IOException {
    try (Cairn db = Cairn.open(dir, options())) {
      for (int i = 0; i < 3000; i++) { // several memtables' worth, left in the log
        db.put(("k" + i).getBytes(StandardCharsets.UTF_8), new byte[40]);
      }
    }
    long highest;
    try (Stream<Path> files = Files.list(dir)) {
      highest = files.map(p -> FileNames.parse(p.getFileName().toString()).number()).max(Long::compare).orElse(0L);
    }
    // What a process killed while writing the next tables leaves behind.
    long orphanLow = highest + 1;
    long orphanHigh = highest + 20;
    for (long n = orphanLow; n <= orphanHigh; n++) {
      Files.write(dir.resolve(FileNames.table(n)), new byte[] {1, 2, 3});
    }
    try (DbImpl db = (DbImpl) Cairn.open(dir, options())) {
      for (int level = 0; level < db.engine().versions().current().numLevels(); level++) {
        for (FileMetaData f : db.engine().versions().current().files(level)) {
          assertTrue(f.number() > orphanHigh || f.number() < orphanLow,
              "table #" + f.number() + " reuses the number of a leftover file");
        }
      }
      for (int i = 0; i < 3000; i++) {
        assertArrayEquals(new byte[40], db.get(("k" + i).getBytes(StandardCharsets.UTF_8)), "k" + i);
      }
      for (long n = orphanLow; n <= orphanHigh; n++) {
        assertFalse(Files.exists(dir.resolve(FileNames.table(n))), "leftover #" + n + " is collected");
      }
    }
  }
}
