package dev.cairn.db;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cairn.Cairn;
import dev.cairn.Options;
import dev.cairn.Stats;
import dev.cairn.config.Compression;
import dev.cairn.db.base.TableIterators;
import dev.cairn.fs.FileNames;
import dev.cairn.fs.IoTag;
import dev.cairn.fs.ReadableFile;
import dev.cairn.table.cache.TableHandle;
import dev.cairn.table.TableReader;
import dev.cairn.testing.EngineCombo;
import dev.cairn.version.FileMetaData;
import dev.cairn.version.Version;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Compression through the engine: flushes store with {@code compression}, a compaction whose
 * output has no data below it with {@code bottommostCompression}, every style reads it all back,
 * Stats count what each level was written before and after compression, and a change of codec
 * applies to new tables only.
 */
class CompressionEngineTest {
  private static byte[] key(int i) {
    return String.format("key%06d", i).getBytes(StandardCharsets.UTF_8);
  }

  private static byte[] value(int i, int round) {
    return ("value-" + i + "-" + round + "|").repeat(8).getBytes(StandardCharsets.UTF_8);
  }

  private static Options options(EngineCombo.CompactionStyle style, Compression c, Compression bottom) {
    return EngineCombo.of(style, EngineCombo.CompactionScheduler.IMMEDIATE).apply(EngineCombo.tinyTree())
        .compression(c).bottommostCompression(bottom).build();
  }

  @ParameterizedTest
  @EnumSource(EngineCombo.CompactionStyle.class)
  void flushesUseTheLevelsCodecTheBottommostItsOwnAndEverythingReadsBack(EngineCombo.CompactionStyle style,
      @TempDir Path dir) throws IOException {
    int n = 3000;
    try (DbImpl db = (DbImpl) Cairn.open(dir, options(style, Compression.lz4(), Compression.zstd()))) {
      for (int round = 0; round < 2; round++) {
        for (int i = 0; i < n; i++) {
          db.put(key(i), value(i, round));
        }
      }
      db.flush();
      db.compactRange(null, null);
      for (int i = 0; i < n; i++) {
        db.put(key(i), value(i, 2)); // the newest versions stay in L0, flushed with LZ4
      }
      db.flush();
      for (int i = 0; i < n; i++) {
        assertArrayEquals(value(i, 2), db.get(key(i)), style + " key " + i);
      }
      Version v = db.engine().versions().refCurrent(); // pinned: a compaction may replace it meanwhile
      try {
        int bottom = v.numLevels() - 1;
        while (bottom > 0 && v.files(bottom).isEmpty()) {
          bottom--;
        }
        assertTrue(bottom > 0, "the compaction reached a level below L0");
        assertTrue(!v.files(0).isEmpty(), "the last flush is in L0");
        assertEquals(Set.of(1), blockTypes(db, v.files(0)), style + ": L0 is LZ4");
        // ZSTD, and possibly LZ4 blocks as well: a table moved down whole (a trivial move) and the
        // clean blocks block compaction keeps stay as they were stored when their level still had
        // data below it, as in RocksDB.
        Set<Integer> bottomTypes = blockTypes(db, v.files(bottom));
        assertTrue(bottomTypes.contains(2), style + ": the bottommost level is ZSTD: " + bottomTypes);
        Stats stats = db.stats();
        Stats.LevelStats l0 = stats.levels().get(0);
        assertTrue(l0.rawDataBytesWritten() > 0 && l0.compressionRatio() < 0.5, style + ": " + l0);
        // The levels below L0 that wrote data blocks: the bottom one may have received its tables
        // whole (a trivial move writes nothing), depending on when background compactions ran.
        List<Stats.LevelStats> written = stats.levels().stream()
            .filter(l -> l.level() > 0 && l.rawDataBytesWritten() > 0).toList();
        assertFalse(written.isEmpty(), style + ": " + stats.levels());
        written.forEach(l -> assertTrue(l.compressionRatio() < 0.5, style + ": " + l));
        assertTrue(stats.toString().contains("compressed data blocks L0 "), stats.toString());
      } finally {
        v.unref();
      }
    }
  }

  @ParameterizedTest
  @EnumSource(EngineCombo.CompactionStyle.class)
  void aChangeOfCodecAppliesToNewTablesAndTheOldOnesStillRead(EngineCombo.CompactionStyle style, @TempDir Path dir)
      throws IOException {
    Options plain = options(style, Compression.none(), null);
    try (Cairn db = Cairn.open(dir, plain)) {
      for (int i = 0; i < 500; i++) {
        db.put(key(i), value(i, 0));
      }
      db.flush();
    }
    try (DbImpl db = (DbImpl) Cairn.open(dir, options(style, Compression.zstd(1), null))) {
      for (int i = 500; i < 1000; i++) {
        db.put(key(i), value(i, 1));
      }
      db.flush();
      Set<Integer> versions = new HashSet<>();
      Version v = db.engine().versions().refCurrent();
      try {
        for (int level = 0; level < v.numLevels(); level++) {
          for (FileMetaData f : v.files(level)) {
            try (TableHandle h = TableIterators.acquire(db.engine().tableCache(), f)) {
              versions.add(h.reader().footer().version());
            }
          }
        }
      } finally {
        v.unref();
      }
      assertTrue(versions.contains(2), style + ": the new table is version 2: " + versions);
      for (int i = 0; i < 1000; i++) {
        assertArrayEquals(value(i, i < 500 ? 0 : 1), db.get(key(i)), style + " key " + i);
      }
    }
    try (Cairn db = Cairn.open(dir, plain)) { // and back: reading needs no option, only the library
      for (int i = 0; i < 1000; i++) {
        assertArrayEquals(value(i, i < 500 ? 0 : 1), db.get(key(i)), style + " key " + i);
      }
    }
  }

  /** The trailer types of every data block of {@code files}. */
  private static Set<Integer> blockTypes(DbImpl db, Iterable<FileMetaData> files) throws IOException {
    Set<Integer> types = new HashSet<>();
    for (FileMetaData f : files) {
      try (TableHandle h = TableIterators.acquire(db.engine().tableCache(), f);
          ReadableFile file = db.engine().fs().openReadable(FileNames.tablePath(db.engine().dir(), f.number()))) {
        TableReader r = h.reader();
        for (int i = 0; i < r.dataBlockCount(); i++) {
          var handle = r.dataBlockHandle(i);
          byte[] type = new byte[1];
          file.read(handle.offset() + handle.size(), ByteBuffer.wrap(type), IoTag.OTHER);
          types.add(type[0] & 0xff);
        }
      }
    }
    return types;
  }
}
