package dev.cairn.db;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cairn.Cairn;
import dev.cairn.Options;
import dev.cairn.version.FileMetaData;
import dev.cairn.version.Version;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Guards "a file once obsolete stays obsolete": a crashed process can leave table files whose
 * numbers its manifest never recorded. Recovery must not hand out those numbers again, or an
 * obsolete-file collection (which deletes without the mutex) could delete the new table of the
 * same name that a recovery flush just wrote (seen in CrashTest: "opening table 000687.sst:
 * NoSuchFileException" on the first read after a kill).
 */
class LeftoverFileNumbersTest {
  @TempDir Path dir;

  @Test
  void recoveryNeverReusesTheNumberOfALeftoverTable() throws IOException {
    Options options = Options.builder().memtableBytes(64 << 10).build();
    try (Cairn db = Cairn.open(dir, options)) {
      db.put("k".getBytes(StandardCharsets.UTF_8), "v".getBytes(StandardCharsets.UTF_8));
    } // the write stays in the log: the next open replays and flushes it
    long highest;
    try (Stream<Path> files = Files.list(dir)) {
      highest = files.map(p -> FileNames.parse(p.getFileName().toString()))
          .filter(p -> p.kind() != FileNames.Kind.UNKNOWN && p.kind() != FileNames.Kind.LOCK
              && p.kind() != FileNames.Kind.CURRENT)
          .mapToLong(FileNames.Parsed::number).max().orElse(0);
    }
    // What a process killed in the middle of a flush or compaction leaves behind.
    for (long n = highest + 1; n <= highest + 20; n++) {
      Files.write(dir.resolve(FileNames.table(n)), new byte[] {1, 2, 3});
    }
    try (Cairn db = Cairn.open(dir, options)) {
      DbImpl impl = (DbImpl) db;
      Version v;
      impl.mutex.lock();
      try {
        v = impl.versions.current();
      } finally {
        impl.mutex.unlock();
      }
      boolean any = false;
      for (int level = 0; level < v.numLevels(); level++) {
        for (FileMetaData f : v.files(level)) {
          any = true;
          assertFalse(f.number() > highest && f.number() <= highest + 20,
              "table #" + f.number() + " reuses a leftover file's number");
        }
      }
      assertTrue(any, "the recovered write must be in a table");
      assertArrayEquals("v".getBytes(StandardCharsets.UTF_8), db.get("k".getBytes(StandardCharsets.UTF_8)));
    }
  }
}
