package dev.cairn.db;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cairn.Cairn;
import dev.cairn.Options;
import dev.cairn.fs.ForwardingFileSystem;
import dev.cairn.fs.LocalFileSystem;
import dev.cairn.fs.WritableFile;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Options.bytesPerSync reaches the flush's output: the table is synced as it is written. */
class BytesPerSyncTest {
  /** Counts the syncs of each table file. */
  private static final class TableSyncs extends ForwardingFileSystem {
    final Map<String, AtomicInteger> syncs = new ConcurrentHashMap<>();

    TableSyncs() {
      super(new LocalFileSystem());
    }

    @Override
    protected WritableFile wrap(Path path, WritableFile file) {
      String name = path.getFileName().toString();
      if (!name.endsWith(".sst")) {
        return file;
      }
      AtomicInteger count = syncs.computeIfAbsent(name, n -> new AtomicInteger());
      return new ForwardingWritableFile(file) {
        @Override
        public void sync() throws IOException {
          count.incrementAndGet();
          super.sync();
        }
      };
    }
  }

  private static int flushSyncs(Path dir, long bytesPerSync) throws IOException {
    TableSyncs fs = new TableSyncs();
    Options options = Options.builder().fileSystem(fs).memtableBytes(8 << 20).bytesPerSync(bytesPerSync).build();
    try (Cairn db = Cairn.open(dir, options)) {
      byte[] value = new byte[1000];
      for (int i = 0; i < 1000; i++) { // about 1 MB, one table
        db.put(String.format("key%06d", i).getBytes(StandardCharsets.UTF_8), value);
      }
      db.flush();
    }
    assertEquals(1, fs.syncs.size(), "one table: " + fs.syncs);
    return fs.syncs.values().iterator().next().get();
  }

  @Test
  void aFlushSyncsItsTableAsItGrows(@TempDir Path dir) throws IOException {
    assertEquals(1, flushSyncs(dir.resolve("off"), 0), "off: only the sync that finishes the table");
    int incremental = flushSyncs(dir.resolve("on"), 128 << 10);
    // About 1 MB in 128 KiB steps: 7 or 8 on the way, then the final one.
    assertTrue(incremental >= 8 && incremental <= 9, "syncs of a 1 MB table at 128 KiB: " + incremental);
  }
}
