package dev.cairn.db.write;

import dev.cairn.wal.WriteBatchRecords;
import dev.cairn.WriteBatch;
import dev.cairn.memtable.MemTable;

/** Applies an encoded write batch to a memtable. */
public final class MemTableInserter {
  private MemTableInserter() {}

  /** Returns the number of operations applied. */
  public static int insert(byte[] encodedBatch, MemTable mem) {
    return insert(encodedBatch, mem, "write batch", 0);
  }

  /** As {@link #insert(byte[], MemTable)}, naming the log file and offset if the batch is corrupt. */
  public static int insert(byte[] encodedBatch, MemTable mem, String fileName, long offset) {
    return WriteBatchRecords.decode(encodedBatch, fileName, offset, mem.inserter());
  }
}
