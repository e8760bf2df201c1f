package dev.cairn.db;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cairn.Cairn;
import dev.cairn.CorruptionException;
import dev.cairn.Options;
import dev.cairn.Options.WalRecoveryMode;
import dev.cairn.WriteOptions;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A manifest whose last edit is damaged reads as if the edit were torn by a crash. Where that edit
 * was a flush, the log it retired is already deleted: the manifest then names a log that is not
 * there, and opening on would lose the flushed writes (their table, named by no manifest, would be
 * deleted as obsolete) without a word.
 */
class ManifestLostEditTest {
  private static final int WRITES = 100;

  @TempDir Path dir;

  @Test
  void aLostFlushEditFailsTheOpenNamingTheManifestAndChangesNothing() throws Exception {
    Path manifest = flushThenDamageTheLastEdit();
    long tables = DamagedFiles.endingWith(dir, ".sst").size();

    CorruptionException e = assertThrows(CorruptionException.class, () -> Cairn.open(dir, Options.defaults()));
    assertEquals(manifest.getFileName().toString(), e.file());
    assertTrue(e.getMessage().contains("missing"), e.getMessage());
    assertEquals(tables, DamagedFiles.endingWith(dir, ".sst").size(), "the flushed table is kept for a person to look at");
  }

  @Test
  void pointInTimeOpensAtTheManifestsState() throws Exception {
    flushThenDamageTheLastEdit();
    try (Cairn db = Cairn.open(dir, Options.builder().walRecoveryMode(WalRecoveryMode.POINT_IN_TIME).build())) {
      assertNull(db.get(key(0)), "the flush's writes went with its edit: the manifest's state has none");
    }
  }

  @Test
  void anIntactManifestOpensWithEveryWrite() throws Exception {
    writeAndFlush();
    try (Cairn db = Cairn.open(dir, Options.defaults())) {
      for (int i = 0; i < WRITES; i++) {
        assertArrayEquals(value(i), db.get(key(i)), "write " + i);
      }
    }
  }

  private Path flushThenDamageTheLastEdit() throws Exception {
    writeAndFlush();
    Path manifest = DamagedFiles.startingWith(dir, "MANIFEST-").get(0);
    byte[] bytes = Files.readAllBytes(manifest);
    long last = DamagedFiles.lastFragmentOffset(bytes);
    DamagedFiles.flipBit(manifest, last + 7 + 1, 3); // in the last edit's payload: reads as a torn tail
    return manifest;
  }

  private void writeAndFlush() throws Exception {
    try (Cairn db = Cairn.open(dir, Options.defaults())) {
      for (int i = 0; i < WRITES; i++) {
        db.put(key(i), value(i), WriteOptions.SYNC);
      }
      db.flush();
    }
  }

  private static byte[] key(int i) {
    return String.format("k%05d", i).getBytes(StandardCharsets.UTF_8);
  }

  private static byte[] value(int i) {
    return ("v" + i).getBytes(StandardCharsets.UTF_8);
  }
}
