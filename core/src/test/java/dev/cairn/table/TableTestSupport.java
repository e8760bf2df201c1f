package dev.cairn.table;

import dev.cairn.fs.fake.InMemoryFile;
import dev.cairn.key.InternalKey;
import dev.cairn.key.InternalKeyComparator;
import dev.cairn.key.LookupResult;
import dev.cairn.key.ValueType;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;

/** Shared helpers for table tests: random internal-key models and the expected lookup result. */
public final class TableTestSupport {
  private TableTestSupport() {}

  public static byte[] userKey(int i) {
    return String.format("key%06d", i).getBytes(StandardCharsets.UTF_8);
  }

  /**
   * A model of {@code n} entries over {@code distinctKeys} user keys with several versions each,
   * about a fifth deletions; sequences unique in 1..
   */
  static TreeMap<byte[], byte[]> randomModel(Random rnd, int n, int distinctKeys) {
    TreeMap<byte[], byte[]> model = new TreeMap<>(InternalKeyComparator.INSTANCE);
    long seq = 1;
    for (int i = 0; i < n; i++) {
      byte[] user = userKey(rnd.nextInt(distinctKeys) * 2); // odd keys stay absent
      ValueType type = rnd.nextInt(5) == 0 ? ValueType.DELETION : ValueType.VALUE;
      seq += 1 + rnd.nextInt(3);
      byte[] value = new byte[type == ValueType.DELETION ? 0 : rnd.nextInt(40)];
      rnd.nextBytes(value);
      model.put(InternalKey.encode(user, seq, type), value);
    }
    return model;
  }

  static TableSummary build(InMemoryFile file, TableOptions options, Map<byte[], byte[]> entries)
      throws IOException {
    TableBuilder b = new TableBuilder(file, options);
    for (Map.Entry<byte[], byte[]> e : entries.entrySet()) {
      b.add(e.getKey(), e.getValue());
    }
    return b.finish();
  }

  /** What a lookup of {@code userKey} at {@code snapshot} must return from {@code model}. */
  static LookupResult expected(TreeMap<byte[], byte[]> model, byte[] userKey, long snapshot) {
    Map.Entry<byte[], byte[]> e = model.ceilingEntry(InternalKey.seekKey(userKey, snapshot));
    if (e == null || InternalKey.compareUserKeys(e.getKey(), InternalKey.seekKey(userKey, 0)) != 0) {
      return LookupResult.NOT_PRESENT;
    }
    return InternalKey.type(e.getKey()) == ValueType.VALUE
        ? LookupResult.found(e.getValue())
        : LookupResult.DELETED;
  }

  /** A full scan of {@code r} gives exactly {@code model}'s entries, in order. */
  static void assertScanMatches(java.util.SortedMap<byte[], byte[]> model, TableReader r) {
    java.util.List<Map.Entry<byte[], byte[]>> want = new java.util.ArrayList<>(model.entrySet());
    try (dev.cairn.iter.InternalIterator it = r.iterator(true, dev.cairn.fs.IoTag.USER_READ)) {
      int i = 0;
      for (it.seekToFirst(); it.isValid(); it.next(), i++) {
        org.junit.jupiter.api.Assertions.assertArrayEquals(want.get(i).getKey(), it.key(), "entry " + i);
        org.junit.jupiter.api.Assertions.assertArrayEquals(want.get(i).getValue(), it.value(), "entry " + i);
      }
      org.junit.jupiter.api.Assertions.assertEquals(want.size(), i);
    }
  }
}
