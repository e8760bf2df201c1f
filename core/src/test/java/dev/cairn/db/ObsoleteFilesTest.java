package dev.cairn.db;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.cairn.db.base.ObsoleteFiles;
import dev.cairn.fs.FileNames;
import dev.cairn.fs.LocalFileSystem;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Which files the collector judges obsolete, from a live set captured earlier: the directory is
 * listed without the engine mutex, so files created after the capture must be kept although the
 * live set does not name them.
 */
class ObsoleteFilesTest {
  @Test
  void onlyFilesNoneNeedsAreObsolete(@TempDir Path dir) throws IOException {
    for (String name : List.of("LOCK", "CURRENT", "notes.txt", FileNames.manifest(3), FileNames.manifest(9),
        FileNames.log(4), FileNames.log(8), FileNames.table(5), FileNames.table(6), FileNames.table(7),
        FileNames.temp(10), FileNames.temp(11),
        // Created after the capture (the next number then was 12): unknown to the live set.
        FileNames.table(12), FileNames.log(13), FileNames.manifest(14), FileNames.temp(15))) {
      Files.writeString(dir.resolve(name), name);
    }
    ObsoleteFiles.LiveSet live = new ObsoleteFiles.LiveSet(Set.of(6L), Set.of(7L, 11L), 8, 9, 12);
    ObsoleteFiles files = new ObsoleteFiles(new LocalFileSystem(), dir, null, 0, new AtomicLong());

    assertEquals(new TreeSet<>(List.of(FileNames.manifest(3), FileNames.log(4), FileNames.table(5),
        FileNames.temp(10))), new TreeSet<>(files.find(live)));
  }
}
