package dev.cairn.db;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cairn.Cairn;
import dev.cairn.CairnException;
import dev.cairn.CairnIterator;
import dev.cairn.CompactionFilter;
import dev.cairn.Options;
import dev.cairn.testing.EngineCombo;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A TTL database (RocksDB's TtlDB): values older than the TTL read as absent from every read path
 * and compactions remove them, in every style; a database created with a TTL opens only with one,
 * and one created without only without; the user's filter sees values without their write time.
 */
class TtlTest {
  private static final int KEYS = 2000;
  private static final Duration TTL = Duration.ofSeconds(100);

  /** A clock the test moves. */
  static final class TestClock extends Clock {
    final AtomicLong millis = new AtomicLong(1_700_000_000_000L);

    void advanceSeconds(long s) {
      millis.addAndGet(s * 1000);
    }

    @Override
    public java.time.ZoneId getZone() {
      return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(java.time.ZoneId zone) {
      return this;
    }

    @Override
    public Instant instant() {
      return Instant.ofEpochMilli(millis.get());
    }
  }

  static List<EngineCombo> combos() {
    return EngineCombo.all();
  }

  private static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  private static byte[] key(int i) {
    return bytes(String.format("key%06d", i));
  }

  private static byte[] value(int i) {
    return bytes("value-" + i + "-" + "x".repeat(30));
  }

  private static Options options(EngineCombo combo, TestClock clock, CompactionFilter filter) {
    return combo.apply(EngineCombo.tinyTree()).ttl(TTL).clock(clock).compactionFilter(filter).build();
  }

  private static List<String> keysForward(Cairn db) {
    List<String> out = new ArrayList<>();
    try (CairnIterator it = db.iterator()) {
      for (it.seekToFirst(); it.isValid(); it.next()) {
        out.add(new String(it.key(), StandardCharsets.UTF_8));
      }
    }
    return out;
  }

  private static List<String> keysBackward(Cairn db) {
    List<String> out = new ArrayList<>();
    try (CairnIterator it = db.iterator()) {
      for (it.seekToLast(); it.isValid(); it.prev()) {
        out.add(0, new String(it.key(), StandardCharsets.UTF_8));
      }
    }
    return out;
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("combos")
  void expiredValuesReadAsAbsentEverywhereAndCompactionsRemoveThem(EngineCombo combo, @TempDir Path dir) {
    TestClock clock = new TestClock();
    try (Cairn db = Cairn.open(dir, options(combo, clock, null))) {
      for (int i = 0; i < KEYS; i++) {
        db.put(key(i), value(i)); // the even keys written now, ...
        if (i == KEYS / 2) {
          clock.advanceSeconds(60); // ... the second half a minute later
        }
      }
      for (int i = 0; i < KEYS; i++) {
        assertArrayEquals(value(i), db.get(key(i)), combo + ": key " + i + " before its expiry");
      }
      assertEquals(KEYS, keysForward(db).size(), combo.toString());
      clock.advanceSeconds(50); // the first half is 110 s old, the second 50 s
      List<String> live = new ArrayList<>();
      for (int i = 0; i < KEYS; i++) {
        byte[] got = db.get(key(i));
        if (i <= KEYS / 2) {
          assertNull(got, combo + ": key " + i + " expired");
        } else {
          assertArrayEquals(value(i), got, combo + ": key " + i + " still live");
          live.add(new String(key(i), StandardCharsets.UTF_8));
        }
      }
      assertEquals(live, keysForward(db), combo + ": an iterator skips the expired keys");
      assertEquals(live, keysBackward(db), combo + ": backward too");
      assertEquals(live.size(), db.scan(new byte[0], null, Integer.MAX_VALUE).size(), combo + ": scan");
      db.compactRange(null, null);
      assertEquals(live, keysForward(db), combo + ": after the compaction");
      db.put(key(0), value(0)); // a new write lives again
      assertArrayEquals(value(0), db.get(key(0)), combo.toString());
    }
  }

  /** Everything in the memtable until a manual compaction rewrites it all: every expired value goes. */
  @ParameterizedTest(name = "{0}")
  @MethodSource("combos")
  void aCompactionRemovesEveryExpiredValueItRewrites(EngineCombo combo, @TempDir Path dir) {
    TestClock clock = new TestClock();
    Options options = combo.apply(EngineCombo.tinyTree()).memtableBytes(4 << 20).ttl(TTL).clock(clock).build();
    try (Cairn db = Cairn.open(dir, options)) {
      for (int i = 0; i < KEYS; i++) {
        db.put(key(i), value(i));
      }
      clock.advanceSeconds(TTL.getSeconds() + 1);
      db.put(key(KEYS), value(KEYS)); // one live value
      db.compactRange(null, null);
      assertEquals(KEYS, db.stats().compaction().filterRemoved(), combo + ": " + db.stats().compaction());
      assertEquals(List.of(new String(key(KEYS), StandardCharsets.UTF_8)), keysForward(db), combo.toString());
    }
  }

  /** Removing expired values changes no reader's view: a snapshot taken meanwhile discards nothing. */
  @Test
  void expiryNeverDiscardsACompactionForASnapshot(@TempDir Path dir) {
    TestClock clock = new TestClock();
    java.util.concurrent.atomic.AtomicReference<Cairn> opened = new java.util.concurrent.atomic.AtomicReference<>();
    java.util.concurrent.atomic.AtomicReference<dev.cairn.Snapshot> taken = new java.util.concurrent.atomic.AtomicReference<>();
    CompactionFilter snapshotting = (context, key, value) -> {
      synchronized (taken) {
        if (taken.get() == null) {
          taken.set(opened.get().snapshot());
        }
      }
      return CompactionFilter.Decision.KEEP;
    };
    EngineCombo buffer = EngineCombo.of(EngineCombo.CompactionStyle.BUFFER, EngineCombo.CompactionScheduler.IMMEDIATE);
    Options options = buffer.apply(EngineCombo.tinyTree()).memtableBytes(4 << 20).ttl(TTL).clock(clock)
        .compactionFilter(snapshotting).build();
    try (Cairn db = Cairn.open(dir, options)) {
      opened.set(db);
      for (int i = 0; i < KEYS; i++) {
        db.put(key(i), value(i));
      }
      clock.advanceSeconds(TTL.getSeconds() + 1);
      db.put(key(KEYS), value(KEYS)); // one live value: the user's filter is asked, and takes a snapshot
      db.compactRange(null, null);
      assertTrue(taken.get() != null, "the user's filter ran");
      assertEquals(0, db.stats().compaction().filterDiscarded(), db.stats().compaction().toString());
      assertEquals(KEYS, db.stats().compaction().filterRemoved(), db.stats().compaction().toString());
      taken.get().close();
    }
  }

  @Test
  void aDatabaseOpensOnlyWithTheValueFormatItWasCreatedWith(@TempDir Path dir) {
    TestClock clock = new TestClock();
    Path ttlDb = dir.resolve("ttl");
    Options withTtl = Options.builder().ttl(TTL).clock(clock).build();
    try (Cairn db = Cairn.open(ttlDb, withTtl)) {
      db.put(bytes("a"), bytes("1"));
      db.flush();
    }
    CairnException noTtl = assertThrows(CairnException.class, () -> Cairn.open(ttlDb, Options.defaults()));
    assertTrue(noTtl.getMessage().contains("created with a TTL"), noTtl.getMessage());
    assertThrows(CairnException.class, () -> Cairn.openReadOnly(ttlDb, Options.defaults()));
    Path copy = dir.resolve("copy");
    try (Cairn db = Cairn.open(ttlDb, withTtl)) {
      assertArrayEquals(bytes("1"), db.get(bytes("a")), "reopened with its TTL");
      db.checkpoint(copy);
    }
    assertThrows(CairnException.class, () -> Cairn.open(copy, Options.defaults()), "a checkpoint keeps the format");
    try (Cairn db = Cairn.open(copy, withTtl)) {
      assertArrayEquals(bytes("1"), db.get(bytes("a")));
    }
    Path plain = dir.resolve("plain");
    try (Cairn db = Cairn.open(plain, Options.defaults())) {
      db.put(bytes("a"), bytes("1"));
    }
    CairnException withOne = assertThrows(CairnException.class, () -> Cairn.open(plain, withTtl));
    assertTrue(withOne.getMessage().contains("created without a TTL"), withOne.getMessage());
    try (Cairn db = Cairn.open(plain, Options.defaults())) {
      assertArrayEquals(bytes("1"), db.get(bytes("a")), "the refused opens changed nothing");
    }
  }

  @Test
  void aValueLeavesRoomForItsWriteTime(@TempDir Path dir) {
    try (Cairn db = Cairn.open(dir, Options.builder().ttl(TTL).build())) {
      byte[] tooLong = new byte[Options.MAX_VALUE_BYTES - 3];
      IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> db.put(bytes("k"), tooLong));
      assertTrue(e.getMessage().contains("write time"), e.getMessage());
      assertNull(db.get(bytes("k")), "nothing written");
      assertThrows(IllegalArgumentException.class, () -> Options.builder().ttl(Duration.ZERO).build());
    }
  }

  @Test
  void theUsersFilterSeesValuesWithoutTheirWriteTimeAndAChangeKeepsIt(@TempDir Path dir) {
    TestClock clock = new TestClock();
    List<byte[]> seen = new java.util.concurrent.CopyOnWriteArrayList<>();
    CompactionFilter upper = (context, key, value) -> {
      seen.add(value.clone());
      return CompactionFilter.Decision.change(new String(value, StandardCharsets.UTF_8).toUpperCase()
          .getBytes(StandardCharsets.UTF_8));
    };
    EngineCombo table = EngineCombo.of(EngineCombo.CompactionStyle.TABLE, EngineCombo.CompactionScheduler.IMMEDIATE);
    try (Cairn db = Cairn.open(dir, options(table, clock, upper))) {
      db.put(bytes("k"), bytes("abc"));
      db.compactRange(null, null);
      assertArrayEquals(bytes("ABC"), db.get(bytes("k")), "changed");
      assertTrue(seen.stream().anyMatch(v -> new String(v, StandardCharsets.UTF_8).equals("abc")),
          "the filter saw the user's value alone");
      clock.advanceSeconds(TTL.getSeconds() + 1);
      assertNull(db.get(bytes("k")), "the changed value kept its write time, and expired with it");
      assertFalse(keysForward(db).contains("k"));
    }
  }
}
