package dev.cairn.fuzz;

import dev.cairn.wal.WriteBatchRecords;
import dev.cairn.fs.fake.InMemoryFile;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cairn.Options.WalRecoveryMode;
import dev.cairn.WriteBatch;
import dev.cairn.fs.IoTag;
import dev.cairn.iter.InternalIterator;
import dev.cairn.table.Footer;
import dev.cairn.table.TableReader;
import dev.cairn.version.VersionEditCodec;
import dev.cairn.wal.WalReplay;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * Keeps the committed seed corpora honest: every {@code valid-*} seed must still decode cleanly
 * with today's readers, or the fuzzers would start from garbage after a format change without
 * anyone noticing. {@code -Dcairn.fuzz.writeSeeds=true} regenerates the corpora instead (run from
 * the repository root; see docs/testing.md, "Fuzzing").
 */
class SeedCorpusTest {
  private static final Path INPUTS = Path.of("src/test/resources/dev/cairn/fuzz");

  @Test
  @EnabledIfSystemProperty(named = "cairn.fuzz.writeSeeds", matches = "true")
  void writeSeeds() throws IOException {
    SeedCorpus.main(new String[] {"src/test/resources"});
  }

  @Test
  void validWriteBatchesAndEditsDecode() throws IOException {
    for (Path p : valid("RecordFuzzTest", "writeBatch")) {
      byte[] b = Files.readAllBytes(p);
      assertEquals(WriteBatchRecords.countOf(b), WriteBatchRecords.decode(b, p.toString(), 0, new WriteBatchRecords.Handler() {
        @Override
        public void put(long sequence, byte[] key, byte[] value) {}

        @Override
        public void delete(long sequence, byte[] key) {}

        @Override
        public void merge(long sequence, byte[] key, byte[] operand) {}

        @Override
        public void deleteRange(long sequence, byte[] from, byte[] to) {}
      }), p.toString());
    }
    for (Path p : valid("RecordFuzzTest", "versionEdit")) {
      assertFalse(VersionEditCodec.decode(Files.readAllBytes(p), p.toString(), 0).toString().isEmpty());
    }
  }

  @Test
  void validTablesOpenAndScan() throws IOException {
    for (Path p : valid("TableFuzzTest", "open")) {
      byte[] b = Files.readAllBytes(p);
      try (TableReader r = TableReader.open(new InMemoryFile(b), p.toString(), 1, b.length - Footer.SIZE, null);
           InternalIterator it = r.iterator(false, IoTag.USER_READ)) {
        long n = 0;
        for (it.seekToFirst(); it.isValid(); it.next()) {
          n++;
        }
        assertEquals(r.properties().entries(), n, p.toString());
        r.verifyChecksums();
      }
    }
  }

  @Test
  void validLogsReplayWithoutDamage() throws IOException {
    for (Path p : valid("LogFuzzTest", "wal")) {
      byte[] b = Files.readAllBytes(p);
      WalReplay.ReplayResult r = WalReplay.replay(new InMemoryFile(b), p.toString(),
          WalRecoveryMode.ABSOLUTE_CONSISTENCY, (record, offset) -> { });
      assertTrue(r.records() > 0 && !r.droppedAnything(), p + ": " + r);
    }
  }

  private static List<Path> valid(String test, String method) throws IOException {
    try (Stream<Path> files = Files.list(INPUTS.resolve(test + "Inputs").resolve(method))) {
      List<Path> valid = files.filter(f -> f.getFileName().toString().startsWith("valid-")).sorted().toList();
      assertFalse(valid.isEmpty(), "no valid seeds for " + test + "#" + method);
      return valid;
    }
  }
}
