package dev.cairn.version;

import dev.cairn.key.InternalKey;
import dev.cairn.key.ValueType;
import java.nio.charset.StandardCharsets;

/** Test metadata: tables over printable user keys. */
final class Files {
  private Files() {}

  static byte[] key(String userKey, long sequence) {
    return InternalKey.encode(userKey.getBytes(StandardCharsets.UTF_8), sequence, ValueType.VALUE);
  }

  static byte[] user(String userKey) {
    return userKey.getBytes(StandardCharsets.UTF_8);
  }

  /** A fresh table #number over [smallest, largest] with sequences [lo, hi]. */
  static FileMetaData table(long number, String smallest, String largest, long lo, long hi) {
    long size = 1000 + number;
    return FileMetaData.ofNewTable(number, size, size - 48, key(smallest, hi), key(largest, lo), 10, lo, hi);
  }
}
