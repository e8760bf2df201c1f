package dev.cairn.db;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;

import dev.cairn.Cairn;
import dev.cairn.CairnIterator;
import dev.cairn.Options;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An iterator's values are the caller's to keep and modify, wherever they come from (a table's
 * block, cached or not, or a memtable): a scan copies each value once, and that copy is never
 * shared with the engine or with a second call.
 */
class IteratorValuesTest {
  @TempDir Path dir;

  private static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  @Test
  void valuesFromTablesAndMemtablesAreTheCallersOwn() throws Exception {
    try (Cairn db = Cairn.open(dir, Options.builder().blockCacheBytes(1 << 20).build())) {
      db.put(bytes("a"), bytes("from-table-a"));
      db.put(bytes("b"), bytes("from-table-b"));
      db.flush();
      db.put(bytes("c"), bytes("from-memtable"));
      for (int round = 0; round < 2; round++) { // the second round reads cached blocks
        List<String> seen = new ArrayList<>();
        try (CairnIterator it = db.iterator()) {
          for (it.seekToFirst(); it.isValid(); it.next()) {
            byte[] first = it.value();
            String original = new String(first, StandardCharsets.UTF_8);
            Arrays.fill(first, (byte) '!');
            byte[] second = it.value();
            assertNotSame(first, second);
            assertEquals(original, new String(second, StandardCharsets.UTF_8),
                "a changed value showed through a second call");
            seen.add(original);
          }
        }
        assertEquals(List.of("from-table-a", "from-table-b", "from-memtable"), seen);
        assertArrayEquals(bytes("from-table-a"), db.get(bytes("a")), "a changed value reached the engine");
        assertArrayEquals(bytes("from-memtable"), db.get(bytes("c")), "a changed value reached the memtable");
      }
    }
  }
}
