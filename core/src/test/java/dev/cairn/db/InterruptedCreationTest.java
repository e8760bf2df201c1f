package dev.cairn.db;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cairn.Cairn;
import dev.cairn.CairnException;
import dev.cairn.Options;
import dev.cairn.fs.FileNames;
import dev.cairn.fs.fake.FaultInjectingFileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A first open that fails or crashes before CURRENT is written leaves a directory the next open
 * still creates the database in: what a creation leaves is not "another program's files".
 */
class InterruptedCreationTest {
  private static final byte[] KEY = {1};
  private static final byte[] VALUE = {42};

  @TempDir Path dir;

  @Test
  void aFirstOpenThatFailedBeforeCurrentLeavesADirectoryTheNextOpenCreates() throws Exception {
    FaultInjectingFileSystem fs = new FaultInjectingFileSystem();
    Options options = Options.builder().fileSystem(fs).build();
    fs.failRenames(true); // CURRENT is put in place by a rename
    assertThrows(CairnException.class, () -> Cairn.open(dir, options));
    assertTrue(!Files.exists(dir.resolve(FileNames.CURRENT)), "the failed creation wrote no CURRENT");
    fs.heal();
    assertCreatedAndKeepsAWrite(options);
  }

  @Test
  void aCreationWhoseLastDirectorySyncFailedKeepsTheManifestCurrentNames() throws Exception {
    FaultInjectingFileSystem fs = new FaultInjectingFileSystem();
    Options options = Options.builder().fileSystem(fs).build();
    fs.failDirectorySyncsAfterNextRename(); // CURRENT is in place, its directory sync fails
    assertThrows(CairnException.class, () -> Cairn.open(dir, options));
    fs.heal();
    assertCreatedAndKeepsAWrite(options);
  }

  @Test
  void aCreationThatCrashedAfterItsManifestIsCreatedAgain() throws Exception {
    Files.createDirectories(dir);
    // What a crash between the first manifest's write and CURRENT's rename leaves (any bytes).
    Files.write(dir.resolve(FileNames.manifest(1)), new byte[] {9, 9, 9});
    Files.write(dir.resolve(FileNames.temp(1)), new byte[] {'M'});
    assertCreatedAndKeepsAWrite(Options.defaults());
  }

  @Test
  void anyOtherFileStillMakesTheDirectoryNotADatabase() throws Exception {
    Files.createDirectories(dir);
    Files.write(dir.resolve(FileNames.manifest(1)), new byte[] {9});
    Files.write(dir.resolve("000005.log"), new byte[] {9});
    CairnException e = assertThrows(CairnException.class, () -> Cairn.open(dir, Options.defaults()));
    assertTrue(e.getMessage().contains("not a Cairn database"), e.getMessage());
    try (Stream<Path> files = Files.list(dir)) {
      assertEquals(List.of("000005.log", FileNames.manifest(1)),
          files.map(p -> p.getFileName().toString()).filter(n -> !n.equals(FileNames.LOCK)).sorted().toList(),
          "a refused open changes nothing");
    }
  }

  /** The next open creates the database: it takes a write and the open after finds it. */
  private void assertCreatedAndKeepsAWrite(Options options) {
    try (Cairn db = Cairn.open(dir, options)) {
      db.put(KEY, VALUE);
    }
    try (Cairn db = Cairn.open(dir, options)) {
      assertArrayEquals(VALUE, db.get(KEY));
    }
  }
}
