package dev.cairn.db;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cairn.BackgroundErrorException;
import dev.cairn.Cairn;
import dev.cairn.CairnException;
import dev.cairn.CairnIterator;
import dev.cairn.CounterOperator;
import dev.cairn.MergeOperator;
import dev.cairn.Options;
import dev.cairn.ReadOptions;
import dev.cairn.Snapshot;
import dev.cairn.WriteBatch;
import dev.cairn.testing.EngineCombo;
import dev.cairn.testkit.Seeds;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Merges through every style and layout with the built-in counter, against a reference of
 * longs: point reads, iterators both ways and a snapshot agree with it while compactions merge
 * operands in the levels and the buffer, after a full compaction and after a reopen (operands
 * replayed from the log); bad input is refused whole; an operator that fails stops the database
 * without losing anything.
 */
class MergeOperatorTest {
  private static final int KEYS = 1500;

  static List<EngineCombo> combos() {
    return EngineCombo.all();
  }

  private static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  private static String key(int i) {
    return String.format("c%05d", i);
  }

  private static Options options(EngineCombo combo) {
    return combo.apply(EngineCombo.tinyTree()).mergeOperator(MergeOperator.counter()).build();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("combos")
  void countersMatchTheReferenceInEveryReadPath(EngineCombo combo, @TempDir Path dir) {
    long seed = Seeds.seed();
    SplittableRandom rnd = new SplittableRandom(seed);
    TreeMap<String, Long> model = new TreeMap<>();
    String where = combo + ", seed " + seed;
    Cairn db = Cairn.open(dir, options(combo));
    try {
      Snapshot snapshot = null;
      Map<String, Long> atSnapshot = null;
      for (int round = 0; round < 4; round++) {
        for (int n = 0; n < KEYS * 3; n++) {
          // Skewed: a tenth of the keys take half the updates, so operands pile up on them.
          int i = rnd.nextBoolean() ? rnd.nextInt(KEYS / 10) : rnd.nextInt(KEYS);
          String k = key(i);
          int kind = rnd.nextInt(40);
          if (kind == 0) {
            db.delete(bytes(k));
            model.remove(k);
          } else if (kind == 1) {
            long v = rnd.nextLong(1000);
            db.put(bytes(k), CounterOperator.encode(v));
            model.put(k, v);
          } else {
            long delta = rnd.nextLong(-50, 100);
            db.merge(bytes(k), CounterOperator.encode(delta));
            model.merge(k, delta, Long::sum);
          }
        }
        if (round == 1) {
          snapshot = db.snapshot();
          atSnapshot = new TreeMap<>(model);
        }
        checkAll(db, model, ReadOptions.DEFAULT, where + ", round " + round);
        if (snapshot != null) {
          checkAll(db, atSnapshot, ReadOptions.at(snapshot), where + ", snapshot, round " + round);
        }
      }
      db.compactRange(null, null);
      checkAll(db, model, ReadOptions.DEFAULT, where + ", compacted");
      checkAll(db, atSnapshot, ReadOptions.at(snapshot), where + ", snapshot, compacted");
      assertTrue(db.stats().compaction().mergedOperands() > 0, where + ": compactions merged operands");
      snapshot.close();
      db.compactRange(null, null);
      for (int n = 0; n < 300; n++) {
        String k = key(rnd.nextInt(KEYS / 10));
        db.merge(bytes(k), CounterOperator.encode(1));
        model.merge(k, 1L, Long::sum);
      }
      db.close();
      db = Cairn.open(dir, options(combo));
      checkAll(db, model, ReadOptions.DEFAULT, where + ", reopened");
    } finally {
      db.close();
    }
  }

  /** Every key by get, then forward and backward iteration, against {@code expected}. */
  private static void checkAll(Cairn db, Map<String, Long> expected, ReadOptions read, String where) {
    for (int i = 0; i < KEYS; i++) {
      Long want = expected.get(key(i));
      byte[] got = db.get(bytes(key(i)), read);
      if (want == null) {
        assertNull(got, where + ": " + key(i) + " must be absent");
      } else {
        assertEquals(want, CounterOperator.decode(got), where + ": " + key(i));
      }
    }
    try (CairnIterator it = db.iterator(read)) {
      it.seekToFirst();
      for (Map.Entry<String, Long> e : expected.entrySet()) {
        assertTrue(it.isValid(), where + ": forward iteration ended before " + e.getKey());
        assertEquals(e.getKey(), new String(it.key(), StandardCharsets.UTF_8), where + ": forward key");
        assertEquals(e.getValue(), CounterOperator.decode(it.value()), where + ": forward " + e.getKey());
        it.next();
      }
      assertFalse(it.isValid(), where + ": forward iteration has extra keys");
      it.seekToLast();
      for (Map.Entry<String, Long> e : ((TreeMap<String, Long>) new TreeMap<>(expected)).descendingMap().entrySet()) {
        assertTrue(it.isValid(), where + ": backward iteration ended before " + e.getKey());
        assertEquals(e.getKey(), new String(it.key(), StandardCharsets.UTF_8), where + ": backward key");
        assertEquals(e.getValue(), CounterOperator.decode(it.value()), where + ": backward " + e.getKey());
        it.prev();
      }
      assertFalse(it.isValid(), where + ": backward iteration has extra keys");
    }
  }

  /**
   * Readers beside a writer that adds one to a counter at a time while memtables flush: a read
   * sees at least the merges acknowledged before it began and at most those begun before it
   * ended. A read that pinned a memtable and the version holding its flushed table (the two are
   * pinned one after the other, without a lock) would count that memtable's operands twice.
   */
  @Test
  void readsBesideFlushesCountEachOperandOnce(@TempDir Path dir) throws Exception {
    byte[] counter = bytes("counter");
    byte[] pad = new byte[512];
    try (Cairn db = Cairn.open(dir, EngineCombo.tinyTree().mergeOperator(MergeOperator.counter()).build())) {
      java.util.concurrent.atomic.AtomicLong begun = new java.util.concurrent.atomic.AtomicLong();
      java.util.concurrent.atomic.AtomicLong acknowledged = new java.util.concurrent.atomic.AtomicLong();
      java.util.concurrent.atomic.AtomicReference<Throwable> failure = new java.util.concurrent.atomic.AtomicReference<>();
      Thread writer = new Thread(() -> {
        try {
          for (int i = 0; i < 20_000 && failure.get() == null; i++) {
            begun.incrementAndGet();
            // The padding fills memtables quickly: a flush every hundred merges or so.
            db.write(new WriteBatch().merge(counter, CounterOperator.encode(1)).put(bytes("pad" + (i % 50)), pad));
            acknowledged.incrementAndGet();
          }
        } catch (Throwable t) {
          failure.compareAndSet(null, t);
        }
      }, "merging-writer");
      writer.start();
      long reads = 0;
      while (writer.isAlive() && failure.get() == null) {
        long low = acknowledged.get();
        byte[] v;
        if (reads % 4 == 0) {
          try (CairnIterator it = db.iterator()) {
            it.seek(counter);
            v = it.isValid() && java.util.Arrays.equals(it.key(), counter) ? it.value() : null;
          }
        } else {
          v = db.get(counter);
        }
        long high = begun.get();
        long got = v == null ? 0 : CounterOperator.decode(v);
        assertTrue(low <= got && got <= high, "read " + got + " outside [" + low + ", " + high + "]");
        reads++;
      }
      writer.join();
      if (failure.get() != null) {
        throw new AssertionError("the writer failed", failure.get());
      }
      assertEquals(20_000, CounterOperator.decode(db.get(counter)));
      assertTrue(db.stats().flush().count() > 10, "flushes ran beside the reads: " + db.stats().flush().count());
    }
  }

  @Test
  void theCounterAddsWithWraparoundAndRefusesMalformedOperands() {
    MergeOperator c = MergeOperator.counter();
    byte[] k = bytes("k");
    assertEquals(5, CounterOperator.decode(c.fullMerge(k, null, List.of(CounterOperator.encode(5)))));
    assertEquals(Long.MIN_VALUE, CounterOperator.decode(c.fullMerge(k, CounterOperator.encode(Long.MAX_VALUE),
        List.of(CounterOperator.encode(1)))));
    assertEquals(-3, CounterOperator.decode(c.partialMerge(k, CounterOperator.encode(-5), CounterOperator.encode(2))));
    assertThrows(IllegalArgumentException.class, () -> c.checkOperand(k, new byte[7]));
    assertThrows(IllegalStateException.class, () -> c.fullMerge(k, new byte[3], List.of(CounterOperator.encode(1))));
  }

  @Test
  void badMergesAreRefusedAndChangeNothing(@TempDir Path dir) {
    try (Cairn db = Cairn.open(dir.resolve("plain"), EngineCombo.tinyTree().build())) {
      db.put(bytes("a"), bytes("1"));
      IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
          () -> db.write(new WriteBatch().put(bytes("a"), bytes("2")).merge(bytes("a"), bytes("x"))));
      assertTrue(e.getMessage().contains("no merge operator"), e.getMessage());
      assertArrayEquals(bytes("1"), db.get(bytes("a")), "the refused batch wrote nothing");
    }
    try (Cairn db = Cairn.open(dir.resolve("counter"),
        EngineCombo.tinyTree().mergeOperator(MergeOperator.counter()).build())) {
      db.merge(bytes("n"), CounterOperator.encode(2));
      IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
          () -> db.write(new WriteBatch().merge(bytes("n"), CounterOperator.encode(1)).merge(bytes("n"), new byte[3])));
      assertTrue(e.getMessage().contains("key n") && e.getMessage().contains("8 bytes"), e.getMessage());
      assertEquals(2, CounterOperator.decode(db.get(bytes("n"))), "the refused batch wrote nothing");
      assertThrows(IllegalArgumentException.class, () -> db.merge(bytes("n"), null));
      assertThrows(IllegalArgumentException.class, () -> db.merge(null, CounterOperator.encode(1)));
    }
    IllegalArgumentException ttl = assertThrows(IllegalArgumentException.class,
        () -> EngineCombo.tinyTree().ttl(Duration.ofHours(1)).mergeOperator(MergeOperator.counter()).build());
    assertTrue(ttl.getMessage().contains("ttl") && ttl.getMessage().contains("mergeOperator"), ttl.getMessage());
  }

  @Test
  void operandsReadWithoutAnOperatorAreAnErrorNamingTheKey(@TempDir Path dir) {
    try (Cairn db = Cairn.open(dir, EngineCombo.tinyTree().mergeOperator(MergeOperator.counter()).build())) {
      db.put(bytes("plain"), bytes("v"));
      db.merge(bytes("sum"), CounterOperator.encode(1));
      db.flush();
      db.merge(bytes("sum"), CounterOperator.encode(1));
    }
    try (Cairn db = Cairn.open(dir, EngineCombo.tinyTree().build())) {
      assertArrayEquals(bytes("v"), db.get(bytes("plain")));
      CairnException e = assertThrows(CairnException.class, () -> db.get(bytes("sum")));
      assertTrue(e.getMessage().contains("sum") && e.getMessage().contains("merge operator"), e.getMessage());
    }
  }

  /** Fails on key "bad": reads of it fail, a compaction that meets it stops writes, nothing is lost. */
  @Test
  void anOperatorThatFailsStopsWritesAndLosesNothing(@TempDir Path dir) {
    MergeOperator failing = new MergeOperator() {
      @Override
      public String name() {
        return "failing";
      }

      @Override
      public byte[] fullMerge(byte[] key, byte[] existing, List<byte[]> operands) {
        if (new String(key, StandardCharsets.UTF_8).equals("bad")) {
          throw new IllegalStateException("refuses bad");
        }
        return MergeOperator.counter().fullMerge(key, existing, operands);
      }
    };
    Options.Builder o = EngineCombo.tinyTree().mergeOperator(failing);
    try (Cairn db = Cairn.open(dir, o.build())) {
      db.put(bytes("bad"), CounterOperator.encode(1));
      db.merge(bytes("bad"), CounterOperator.encode(1));
      db.merge(bytes("good"), CounterOperator.encode(7));
      CairnException read = assertThrows(CairnException.class, () -> db.get(bytes("bad")));
      assertTrue(read.getMessage().contains("failing") && read.getMessage().contains("bad"), read.getMessage());
      assertEquals(7, CounterOperator.decode(db.get(bytes("good"))));
      // An iterator whose merge fails shows nothing after it, in either direction.
      try (CairnIterator it = db.iterator(ReadOptions.DEFAULT)) {
        assertThrows(CairnException.class, it::seekToFirst);
        assertFalse(it.isValid(), "a failed merge left the iterator on a key");
        it.seek(bytes("c"));
        assertEquals("good", new String(it.key(), StandardCharsets.UTF_8));
        assertThrows(CairnException.class, it::prev);
        assertFalse(it.isValid(), "a failed backward merge left the iterator on a key");
      }
      assertThrows(RuntimeException.class, () -> db.compactRange(null, null));
      assertThrows(BackgroundErrorException.class, () -> db.merge(bytes("good"), CounterOperator.encode(1)));
    }
    try (Cairn db = Cairn.open(dir, o.mergeOperator(MergeOperator.counter()).build())) {
      assertEquals(2, CounterOperator.decode(db.get(bytes("bad"))), "the operands outlived the failure");
      assertEquals(7, CounterOperator.decode(db.get(bytes("good"))));
    }
  }
}
