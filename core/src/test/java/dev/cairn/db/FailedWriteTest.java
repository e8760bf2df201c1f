package dev.cairn.db;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cairn.BackgroundErrorException;
import dev.cairn.Cairn;
import dev.cairn.CairnException;
import dev.cairn.Options;
import dev.cairn.WriteOptions;
import dev.cairn.fs.fake.FaultInjectingFileSystem;
import java.io.IOException;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * After a failed WAL sync or append, or a failed flush, the engine refuses further writes with the
 * original cause, keeps serving reads, and a reopen recovers every acknowledged write.
 */
class FailedWriteTest {
  @TempDir Path dir;

  @Test
  void aFailedWalSyncLatchesAndRefusesLaterWrites() {
    FaultInjectingFileSystem fs = new FaultInjectingFileSystem();
    Cairn db = Cairn.open(dir, Options.builder().fileSystem(fs).build());
    db.put(key(1), key(1), WriteOptions.SYNC);
    fs.failSyncs(name -> name.endsWith(".log"));
    CairnException first = assertThrows(CairnException.class, () -> db.put(key(2), key(2), WriteOptions.SYNC));
    assertTrue(first.getMessage().contains("write-ahead log"), first.getMessage());
    fs.heal();
    BackgroundErrorException later = assertThrows(BackgroundErrorException.class,
        () -> db.put(key(3), key(3), WriteOptions.NO_SYNC));
    assertInstanceOf(IOException.class, rootCause(later), "the original cause is kept");
    assertArrayEquals(key(1), db.get(key(1)), "reads still work");
    db.close();
    try (Cairn reopened = Cairn.open(dir, Options.defaults())) {
      assertArrayEquals(key(1), reopened.get(key(1)), "the acknowledged write survives");
      reopened.put(key(4), key(4));
      assertArrayEquals(key(4), reopened.get(key(4)), "a reopened database accepts writes again");
    }
    assertTrue(fs.faultsInjected() > 0);
  }

  @Test
  void aFailedFlushLatchesAndTheDataIsRecoveredFromTheLog() {
    FaultInjectingFileSystem fs = new FaultInjectingFileSystem();
    Cairn db = Cairn.open(dir, Options.builder().fileSystem(fs).build());
    for (int i = 0; i < 100; i++) {
      db.put(key(i), key(i), WriteOptions.SYNC);
    }
    fs.failSyncs(name -> name.endsWith(".sst"));
    assertThrows(CairnException.class, db::flush);
    assertThrows(BackgroundErrorException.class, () -> db.put(key(1000), key(1000)));
    db.close();
    fs.heal();
    try (Cairn reopened = Cairn.open(dir, Options.defaults())) {
      for (int i = 0; i < 100; i++) {
        assertArrayEquals(key(i), reopened.get(key(i)), "key " + i);
      }
      assertEquals(0, reopened.stats().levels().get(1).files());
    }
  }

  private static Throwable rootCause(Throwable t) {
    while (t.getCause() != null && t.getCause() != t) {
      t = t.getCause();
    }
    return t;
  }

  private static byte[] key(int i) {
    return String.format("k%06d", i).getBytes();
  }
}
