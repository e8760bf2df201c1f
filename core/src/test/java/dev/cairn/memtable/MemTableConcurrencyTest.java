package dev.cairn.memtable;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cairn.iter.DbIterator;
import dev.cairn.iter.InternalIterator;
import dev.cairn.key.InternalKey;
import dev.cairn.key.InternalKeyComparator;
import dev.cairn.key.LookupResult;
import dev.cairn.key.ValueType;
import dev.cairn.util.Coding;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** Several threads add while a reader iterates and looks up; nothing is lost or misordered. */
class MemTableConcurrencyTest {
  private static final int WRITERS = 4;
  private static final int PER_WRITER = 10_000;
  private static final int KEYS = 1000;

  @Test
  void concurrentAddersAndAReader() throws Exception {
    MemTable m = new MemTable();
    ExecutorService pool = Executors.newFixedThreadPool(WRITERS + 1);
    try {
      CountDownLatch start = new CountDownLatch(1);
      AtomicBoolean writing = new AtomicBoolean(true);
      List<Future<?>> writers = new ArrayList<>();
      for (int w = 0; w < WRITERS; w++) {
        int writer = w;
        writers.add(pool.submit(() -> {
          start.await();
          for (int i = 0; i < PER_WRITER; i++) {
            // Writer w owns sequences w+1, w+1+WRITERS, ...; the value names its sequence.
            long sequence = 1 + writer + (long) i * WRITERS;
            byte[] value = new byte[8];
            Coding.putFixed64(value, 0, sequence);
            m.add(sequence, ValueType.VALUE, key((int) (sequence % KEYS)), value);
          }
          return null;
        }));
      }
      Future<Integer> reader = pool.submit(() -> {
        start.await();
        int passes = 0;
        while (writing.get() || passes == 0) {
          passes++;
          long entriesBefore = m.entries();
          long seen = 0;
          byte[] previous = null;
          try (InternalIterator it = m.iterator()) {
            for (it.seekToFirst(); it.isValid(); it.next()) {
              byte[] k = it.key();
              if (previous != null) {
                assertTrue(InternalKeyComparator.INSTANCE.compare(previous, k) < 0, "order");
              }
              assertEquals(InternalKey.sequence(k), Coding.getFixed64(it.value(), 0));
              previous = k;
              seen++;
            }
          }
          // A weakly consistent iterator sees at least everything added before it started.
          assertTrue(seen >= entriesBefore, seen + " < " + entriesBefore);
          // A lookup at any sequence returns the newest entry at or below it for the key.
          LookupResult r = m.get(key(7), Long.MAX_VALUE);
          if (r.kind() == LookupResult.Kind.FOUND) {
            assertEquals(7, Coding.getFixed64(r.value(), 0) % KEYS);
          }
        }
        return passes;
      });
      start.countDown();
      for (Future<?> f : writers) {
        f.get(60, TimeUnit.SECONDS);
      }
      writing.set(false);
      assertTrue(reader.get(60, TimeUnit.SECONDS) > 0);

      long total = (long) WRITERS * PER_WRITER;
      assertEquals(total, m.entries());
      assertEquals(1, m.smallestSequence());
      assertEquals(total, m.largestSequence());
      for (int k = 0; k < KEYS; k++) {
        // The newest sequence for key k is the largest s <= total with s % KEYS == k.
        long newest = total - Math.floorMod(total - k, KEYS);
        byte[] expected = new byte[8];
        Coding.putFixed64(expected, 0, newest);
        assertArrayEquals(expected, m.get(key(k), Long.MAX_VALUE).value(), "key " + k);
      }
    } finally {
      pool.shutdownNow();
      assertTrue(pool.awaitTermination(10, TimeUnit.SECONDS));
    }
  }

  @Test
  void snapshotScansAreStableWhileAWriterAdds() throws Exception {
    MemTable m = new MemTable();
    AtomicLong published = new AtomicLong(); // the engine's "last sequence", set after the add
    AtomicBoolean writing = new AtomicBoolean(true);
    ExecutorService pool = Executors.newSingleThreadExecutor();
    try {
      Future<?> writer = pool.submit(() -> {
        for (long seq = 1; seq <= 20_000; seq++) {
          int k = (int) (seq % KEYS);
          if (seq % 5 == 0) {
            m.add(seq, ValueType.DELETION, key(k), new byte[0]);
          } else {
            m.add(seq, ValueType.VALUE, key(k), Long.toString(seq).getBytes());
          }
          published.set(seq);
        }
        writing.set(false);
        return null;
      });
      int checks = 0;
      while (writing.get() || checks == 0) {
        long snapshot = published.get();
        List<String> first = scan(m, snapshot);
        List<String> second = scan(m, snapshot);
        assertEquals(first, second, "two scans at snapshot " + snapshot);
        checks++;
      }
      writer.get(60, TimeUnit.SECONDS);
    } finally {
      pool.shutdownNow();
      assertTrue(pool.awaitTermination(10, TimeUnit.SECONDS));
    }
  }

  private static List<String> scan(MemTable m, long snapshot) {
    List<String> out = new ArrayList<>();
    try (DbIterator it = new DbIterator(m.iterator(), snapshot, null, null, null)) {
      for (it.seekToFirst(); it.isValid(); it.next()) {
        out.add(new String(it.key()) + "=" + new String(it.value()));
      }
    }
    return out;
  }

  private static byte[] key(int k) {
    return String.format("key%05d", k).getBytes();
  }
}
