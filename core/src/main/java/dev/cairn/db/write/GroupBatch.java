package dev.cairn.db.write;

import dev.cairn.WriteBatch;
import java.util.Deque;
import java.util.Iterator;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * The batches of the writers at the head of the queue, merged into one WAL record (group
 * commit). A group is capped in size so that a small write does not wait behind megabytes, and a
 * synced write never joins a group led by an unsynced one (the leader decides whether to sync).
 */
record GroupBatch<W>(WriteBatch batch, boolean sync, W last) {
  private static final int MAX_GROUP_BYTES = 1 << 20;
  /** A small leader's group stays small, so that its own latency stays low (LevelDB). */
  private static final int SMALL_LEADER_BYTES = 128 << 10;

  /**
   * Requires: caller holds the engine mutex, {@code leader} is the head of {@code writers}.
   * Returns the merged batch and the last writer included.
   */
  static <W> GroupBatch<W> collect(Deque<W> writers, W leader, Function<W, WriteBatch> batchOf,
      Predicate<W> syncOf) {
    WriteBatch first = batchOf.apply(leader);
    int size = first.encodedSize();
    int maxSize = size <= SMALL_LEADER_BYTES ? size + SMALL_LEADER_BYTES : MAX_GROUP_BYTES;
    boolean sync = syncOf.test(leader);
    WriteBatch merged = null;
    W last = leader;
    Iterator<W> it = writers.iterator();
    it.next();
    while (it.hasNext()) {
      W w = it.next();
      if (syncOf.test(w) && !sync) {
        break;
      }
      WriteBatch b = batchOf.apply(w);
      if (b.count() == 0) {
        // An empty batch is a barrier (flush() queues one to get a turn at the head): it must
        // reach the head itself, so the group stops before it.
        break;
      }
      size += b.encodedSize();
      if (size > maxSize) {
        break;
      }
      if (merged == null) {
        merged = new WriteBatch().append(first);
      }
      merged.append(b);
      last = w;
    }
    return new GroupBatch<>(merged == null ? first : merged, sync, last);
  }
}
