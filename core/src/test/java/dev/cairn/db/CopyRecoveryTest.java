package dev.cairn.db;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cairn.Cairn;
import dev.cairn.CairnException;
import dev.cairn.Options;
import dev.cairn.RepairReport;
import dev.cairn.fs.FileNames;
import dev.cairn.fs.fake.FaultInjectingFileSystem;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A copy's manifest (a checkpoint's, a backup's) names no log. A manifest written from a copy's
 * state, by a repair or by an open that fails after its new manifest, must not name one either:
 * recovery requires the log a manifest names to be on disk.
 */
class CopyRecoveryTest {
  private static final int KEYS = 2000;

  @TempDir Path tmp;

  @Test
  void aRepairedCheckpointOpens() throws Exception {
    Path copy = checkpoint();
    List<Path> tables = DamagedFiles.endingWith(copy, ".sst");
    assertTrue(tables.size() > 1, "tables: " + tables);
    Files.delete(tables.get(0));
    RepairReport report = Cairn.repair(copy, Options.defaults());
    assertEquals(1, report.dropped().size());
    try (Cairn db = Cairn.open(copy, Options.defaults())) {
      db.put(key(0), "after".getBytes(StandardCharsets.UTF_8));
      assertArrayEquals("after".getBytes(StandardCharsets.UTF_8), db.get(key(0)));
    }
  }

  @Test
  void aCheckpointWhoseFirstOpenFailedAfterItsNewManifestOpens() throws Exception {
    Path copy = checkpoint();
    FaultInjectingFileSystem fs = new FaultInjectingFileSystem();
    fs.failDirectorySyncsAfterNextRename(); // CURRENT names the new manifest, the open fails after
    assertThrows(CairnException.class, () -> Cairn.open(copy, Options.builder().fileSystem(fs).build()));
    fs.heal();
    try (Cairn db = Cairn.open(copy, Options.defaults())) {
      for (int i = 0; i < KEYS; i += 97) {
        assertArrayEquals(value(i), db.get(key(i)), "key " + i);
      }
    }
  }

  private Path checkpoint() throws Exception {
    Path copy = tmp.resolve("copy");
    try (Cairn db = Cairn.open(tmp.resolve("db"), Options.builder().memtableBytes(64 << 10).build())) {
      for (int i = 0; i < KEYS; i++) {
        db.put(key(i), value(i));
      }
      db.flush();
      db.checkpoint(copy);
    }
    assertTrue(Files.exists(copy.resolve(FileNames.CURRENT)));
    return copy;
  }

  private static byte[] key(int i) {
    return String.format("k%05d", i).getBytes(StandardCharsets.UTF_8);
  }

  private static byte[] value(int i) {
    return ("value-" + i + "-".repeat(100)).getBytes(StandardCharsets.UTF_8);
  }
}
