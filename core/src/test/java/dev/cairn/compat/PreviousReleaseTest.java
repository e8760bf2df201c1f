package dev.cairn.compat;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cairn.Cairn;
import dev.cairn.Options;
import dev.cairn.config.Compression;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A database written by the release before block compression ({@link PreviousReleaseDatabase})
 * opens and reads unchanged, passes verify, and takes compressed tables beside its own.
 */
class PreviousReleaseTest {
  private static Path copy(String style, Path to) throws IOException, URISyntaxException {
    Path from = Path.of(PreviousReleaseTest.class.getResource(style).toURI());
    Path db = to.resolve(style);
    Files.createDirectories(db);
    try (Stream<Path> files = Files.list(from)) {
      for (Path f : files.toList()) {
        Files.copy(f, db.resolve(f.getFileName()));
      }
    }
    return db;
  }

  private static void assertHoldsTheRounds(Cairn db, String what) {
    for (int i = 0; i < PreviousReleaseDatabase.KEYS; i++) {
      assertArrayEquals(PreviousReleaseDatabase.expected(i), db.get(PreviousReleaseDatabase.key(i)), what + " key " + i);
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"buffer", "block"})
  void opensReadsAndVerifiesUnchangedThenTakesCompressedTables(String style, @TempDir Path tmp) throws Exception {
    Path dir = copy(style, tmp);
    try (Cairn db = Cairn.open(dir, PreviousReleaseDatabase.options(style))) {
      assertHoldsTheRounds(db, style + " as written");
      // Its three tables, and the one its log was recovered into at this open.
      assertEquals(4, db.verifyChecksums(), "every table verified");
    }
    Options compressed = PreviousReleaseDatabase.options(style).toBuilder()
        .compression(Compression.lz4()).bottommostCompression(Compression.zstd()).build();
    try (Cairn db = Cairn.open(dir, compressed)) {
      for (int i = 0; i < PreviousReleaseDatabase.KEYS; i += 5) {
        db.put(PreviousReleaseDatabase.key(i), PreviousReleaseDatabase.value(i, 9));
      }
      db.flush();
      db.compactRange(null, null);
      for (int i = 0; i < PreviousReleaseDatabase.KEYS; i++) {
        byte[] want = i % 5 == 0 ? PreviousReleaseDatabase.value(i, 9) : PreviousReleaseDatabase.expected(i);
        assertArrayEquals(want, db.get(PreviousReleaseDatabase.key(i)), style + " after compressed writes, key " + i);
      }
      assertTrue(db.verifyChecksums() > 0);
      assertTrue(db.stats().levels().stream().anyMatch(l -> l.compressionRatio() < 1), db.stats().toString());
    }
  }
}
