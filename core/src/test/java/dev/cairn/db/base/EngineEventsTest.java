package dev.cairn.db.base;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cairn.Cairn;
import dev.cairn.Options;
import dev.cairn.key.InternalKey;
import dev.cairn.key.ValueType;
import dev.cairn.version.FileMetaData;
import dev.cairn.version.VersionEdit;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The operator's lines: what a flush, a compaction and a stop say, at which level, and that an
 * application's logging backend (here the JDK's, which {@link System.Logger} uses by default)
 * receives them from a real database.
 */
class EngineEventsTest {
  @TempDir Path dir;

  private static FileMetaData table(long number, long bytes) {
    byte[] a = InternalKey.encode("a".getBytes(StandardCharsets.UTF_8), 1, ValueType.VALUE);
    return FileMetaData.ofNewTable(number, bytes, bytes - 64, a, a, 1, 1, 1);
  }

  /** A handler of the JDK's backend that keeps every record it is given in {@code seen}. */
  private static Handler capturing(List<LogRecord> seen) {
    return new Handler() {
      @Override
      public void publish(LogRecord r) {
        seen.add(r);
      }

      @Override
      public void flush() {}

      @Override
      public void close() {}
    };
  }

  @Test
  void aFlushLineNamesItsTableAndSize() {
    VersionEdit edit = new VersionEdit().addFile(0, table(12, 3L << 20));
    assertEquals("db: flush -> L0 table 12 (3.00 MiB) in 41.5 ms", EngineEvents.flushLine("db", edit, 41_500_000));
  }

  @Test
  void aDatabaseWithoutACacheIsAWarningAtOpen() {
    Logger jdk = Logger.getLogger(EngineEvents.LOGGER);
    List<LogRecord> seen = new CopyOnWriteArrayList<>();
    Handler capture = capturing(seen);
    jdk.addHandler(capture);
    try {
      Cairn.open(dir.resolve("cached"), Options.defaults()).close();
      assertEquals(List.of(), seen.stream().filter(r -> r.getLevel() == Level.WARNING).toList());
      Cairn.open(dir.resolve("uncached"), Options.builder().blockCacheBytes(0).build()).close();
      List<String> warnings = seen.stream().filter(r -> r.getLevel() == Level.WARNING).map(LogRecord::getMessage).toList();
      assertEquals(List.of(EngineEvents.noCacheLine(dir.resolve("uncached").toString())), warnings);
    } finally {
      jdk.removeHandler(capture);
    }
  }

  @Test
  void aStopIsInfoOnceAClientWouldNoticeIt() {
    assertEquals(System.Logger.Level.DEBUG, EngineEvents.stopLevel(99_999_999));
    assertEquals(System.Logger.Level.INFO, EngineEvents.stopLevel(100_000_000));
    assertEquals("db: writes stopped for 250.0 ms: L0 at its stop trigger",
        EngineEvents.stopLine("db", EngineCounters.StallCause.L0_STOP, 250_000_000));
    assertThrows(IllegalArgumentException.class,
        () -> EngineEvents.stopLine("db", EngineCounters.StallCause.SLOWDOWN, 1));
  }

  @Test
  void aDatabaseSendsFlushAndCompactionLinesToTheApplicationsBackend() {
    Logger jdk = Logger.getLogger(EngineEvents.LOGGER);
    List<LogRecord> seen = new CopyOnWriteArrayList<>();
    Handler capture = capturing(seen);
    Level before = jdk.getLevel();
    jdk.setLevel(Level.FINE);
    jdk.addHandler(capture);
    try (Cairn db = Cairn.open(dir.resolve("db"), Options.builder().memtableBytes(1 << 20).build())) {
      for (int round = 0; round < 2; round++) {
        for (int i = 0; i < 1000; i++) {
          db.put(("key" + i).getBytes(StandardCharsets.UTF_8), new byte[100]);
        }
        db.flush();
      }
      db.compactRange(null, null);
    } finally {
      jdk.removeHandler(capture);
      jdk.setLevel(before);
    }
    List<String> lines = seen.stream().filter(r -> r.getLevel() == Level.FINE).map(LogRecord::getMessage).toList();
    assertTrue(lines.stream().anyMatch(l -> l.matches(".*db: flush -> L0 table \\d+ \\(.* MiB\\) in .* ms")), "" + lines);
    assertTrue(lines.stream().anyMatch(l -> l.matches(".*db: .*L0 -> L\\d+, 2 input file\\(s\\).* in .* ms: .*")),
        "a compaction of the two flushed tables: " + lines);
  }
}
