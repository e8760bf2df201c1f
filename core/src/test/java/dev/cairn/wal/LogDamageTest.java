package dev.cairn.wal;

import static dev.cairn.wal.LogRoundTripTest.BLOCK;
import static dev.cairn.wal.LogRoundTripTest.HEADER;
import static dev.cairn.wal.LogRoundTripTest.readAll;
import static dev.cairn.wal.LogRoundTripTest.record;
import static dev.cairn.wal.LogRoundTripTest.write;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cairn.CorruptionException;
import dev.cairn.Options.WalRecoveryMode;
import dev.cairn.testkit.Seeds;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** Torn tails, damage in the middle, zero padding: what the reader reports and what each mode does. */
class LogDamageTest {
  private record Report(long offset, long bytes, String reason, boolean atTail) {}

  private static final class Collected {
    final List<byte[]> records = new ArrayList<>();
    final List<Report> reports = new ArrayList<>();
  }

  private static Collected read(byte[] log) throws IOException {
    Collected c = new Collected();
    LogReader reader = new LogReader(new MemoryFiles.Readable(log), "test.log",
        (offset, bytes, reason, atTail) -> c.reports.add(new Report(offset, bytes, reason, atTail)));
    byte[] r;
    while ((r = reader.readRecord()) != null) {
      c.records.add(r);
    }
    return c;
  }

  private static WalReplay.ReplayResult replay(byte[] log, WalRecoveryMode mode, List<byte[]> out)
      throws IOException {
    return WalReplay.replay(new MemoryFiles.Readable(log), "test.log", mode, (r, offset) -> out.add(r));
  }

  private static void assertPrefix(List<byte[]> expected, int n, List<byte[]> actual) {
    assertEquals(n, actual.size(), "records recovered");
    for (int i = 0; i < n; i++) {
      assertArrayEquals(expected.get(i), actual.get(i), "record " + i);
    }
  }

  /** Every cut inside the last record (small, and spanning blocks) is a torn tail. */
  @Test
  void tornTailAtEveryTruncationPoint() throws IOException {
    Random random = new Random(11);
    for (int lastSize : new int[] {0, 1, 300, BLOCK + 500}) {
      List<byte[]> records = new ArrayList<>();
      for (int i = 0; i < 5; i++) {
        records.add(record(random, 7000));
      }
      records.add(record(random, lastSize));
      List<Long> offsets = new ArrayList<>();
      byte[] log = write(records, offsets);
      long lastStart = offsets.get(5);
      // Small records: every cut; the multi-block one: every cut near a block or fragment edge
      // and every 61st byte elsewhere.
      for (long cut = lastStart + 1; cut < log.length; cut++) {
        long inBlock = cut % BLOCK;
        boolean nearEdge = inBlock < 2 * HEADER || BLOCK - inBlock < 2 * HEADER || log.length - cut < 2 * HEADER;
        if (lastSize > 1000 && !nearEdge && cut % 61 != 0) {
          continue;
        }
        byte[] torn = Arrays.copyOf(log, (int) cut);
        String where = "last record of " + lastSize + " bytes cut at " + cut;
        Collected c = read(torn);
        assertPrefix(records, 5, c.records);
        assertEquals(1, c.reports.size(), where + ": " + c.reports);
        Report report = c.reports.get(0);
        assertTrue(report.atTail(), where + ": " + report);
        assertEquals(lastStart, report.offset(), where);
        assertEquals(cut - lastStart, report.bytes(), where);

        List<byte[]> out = new ArrayList<>();
        WalReplay.ReplayResult result = replay(torn, WalRecoveryMode.TOLERATE_CORRUPTED_TAIL, out);
        assertPrefix(records, 5, out);
        assertTrue(result.tornTail(), where);
        assertEquals(lastStart, result.firstCorruptionOffset(), where);
        CorruptionException e = assertThrows(CorruptionException.class,
            () -> replay(torn, WalRecoveryMode.ABSOLUTE_CONSISTENCY, new ArrayList<>()), where);
        assertEquals(lastStart, e.offset());
        assertEquals("test.log", e.file());
      }
    }
  }

  @Test
  void tornTailFollowedByZerosIsStillATornTail() throws IOException {
    Random random = new Random(12);
    List<byte[]> records = List.of(record(random, 100), record(random, 100), record(random, 2000));
    List<Long> offsets = new ArrayList<>();
    byte[] log = write(records, offsets);
    // The filesystem extended the file, but the last pages of the payload never arrived.
    Arrays.fill(log, log.length - 1500, log.length, (byte) 0);
    byte[] extended = Arrays.copyOf(log, log.length + 4096);
    Collected c = read(extended);
    assertPrefix(records, 2, c.records);
    assertEquals(1, c.reports.size());
    assertTrue(c.reports.get(0).atTail());
    assertEquals(offsets.get(2), c.reports.get(0).offset());
    assertTrue(c.reports.get(0).reason().startsWith("checksum mismatch"), c.reports.get(0).reason());
  }

  @Test
  void zeroFilledTailIsACleanEnd() throws IOException {
    Random random = new Random(13);
    List<byte[]> records = List.of(record(random, 100), record(random, BLOCK), record(random, 10));
    byte[] log = write(records, new ArrayList<>());
    for (int zeros : new int[] {1, HEADER - 1, HEADER, 1000, 3 * BLOCK}) {
      Collected c = read(Arrays.copyOf(log, log.length + zeros));
      assertPrefix(records, 3, c.records);
      assertTrue(c.reports.isEmpty(), zeros + " zeros: " + c.reports);
    }
  }

  @Test
  void zeroTrailerPadsShortBlockTails() throws IOException {
    Random random = new Random(14);
    // The first record leaves 3 bytes in block 0: the writer pads them with zeros.
    List<byte[]> records = List.of(record(random, BLOCK - HEADER - 3), record(random, 50));
    byte[] log = write(records, new ArrayList<>());
    assertEquals(BLOCK + HEADER + 50, log.length);
    for (int i = BLOCK - 3; i < BLOCK; i++) {
      assertEquals(0, log[i], "trailer byte " + i);
    }
    assertEquals(2, read(log).records.size());
    // A non-zero trailer is damage, but it drops no record.
    log[BLOCK - 2] = 9;
    Collected c = read(log);
    assertPrefix(records, 2, c.records);
    assertEquals(List.of(new Report(BLOCK - 3, 3, "non-zero block trailer", false)), c.reports);
  }

  @Test
  void zeroRegionInTheMiddleIsDamage() throws IOException {
    Random random = new Random(15);
    List<byte[]> records = new ArrayList<>();
    for (int i = 0; i < 10; i++) {
      records.add(record(random, 10_000));
    }
    List<Long> offsets = new ArrayList<>();
    byte[] log = write(records, offsets);
    int start = offsets.get(1).intValue();
    Arrays.fill(log, start, start + 10_007, (byte) 0);
    Collected c = read(log);
    assertFalse(c.reports.isEmpty());
    assertEquals(start, c.reports.get(0).offset());
    assertFalse(c.reports.get(0).atTail());
    assertThrows(CorruptionException.class,
        () -> replay(log, WalRecoveryMode.TOLERATE_CORRUPTED_TAIL, new ArrayList<>()));
  }

  /** A flipped bit in the middle: behaviour of every mode. */
  @Test
  void bitFlipInTheMiddlePerMode() throws IOException {
    Random random = new Random(16);
    List<byte[]> records = new ArrayList<>();
    for (int i = 0; i < 200; i++) {
      records.add(record(random, 500));
    }
    List<Long> offsets = new ArrayList<>();
    byte[] log = write(records, offsets);
    int damaged = 20;
    long damagedAt = offsets.get(damaged);
    log[(int) damagedAt + HEADER + 100] ^= 0x10;

    CorruptionException e = assertThrows(CorruptionException.class,
        () -> replay(log, WalRecoveryMode.TOLERATE_CORRUPTED_TAIL, new ArrayList<>()));
    assertEquals(damagedAt, e.offset());
    assertEquals("test.log", e.file());
    assertTrue(e.getMessage().contains("checksum mismatch"), e.getMessage());
    assertThrows(CorruptionException.class,
        () -> replay(log, WalRecoveryMode.ABSOLUTE_CONSISTENCY, new ArrayList<>()));

    List<byte[]> pointInTime = new ArrayList<>();
    WalReplay.ReplayResult pit = replay(log, WalRecoveryMode.POINT_IN_TIME, pointInTime);
    assertPrefix(records, damaged, pointInTime);
    assertEquals(damaged, pit.records());
    assertEquals(damagedAt, pit.firstCorruptionOffset());
    assertEquals(log.length - damagedAt, pit.bytesDropped());
    assertFalse(pit.tornTail());

    // Skipping resumes at the next block: records starting in block 0 after the damage, and the
    // one crossing into block 1, are lost; every record starting after block 0 survives.
    List<byte[]> skipped = new ArrayList<>();
    WalReplay.ReplayResult skip = replay(log, WalRecoveryMode.SKIP_ANY_CORRUPTED, skipped);
    List<byte[]> expected = new ArrayList<>();
    for (int i = 0; i < records.size(); i++) {
      if (i < damaged || offsets.get(i) >= BLOCK) {
        expected.add(records.get(i));
      }
    }
    assertPrefix(expected, expected.size(), skipped);
    assertEquals(damagedAt, skip.firstCorruptionOffset());
    assertFalse(skip.tornTail());
    assertTrue(skip.bytesDropped() > BLOCK - damagedAt, "dropped " + skip.bytesDropped());
  }

  /** Damage in the last block that is followed by an intact record is not a torn tail. */
  @Test
  void badChecksumBeforeTheLastRecordIsNotATornTail() throws IOException {
    Random random = new Random(17);
    List<byte[]> records = List.of(record(random, 100), record(random, 100), record(random, 100));
    List<Long> offsets = new ArrayList<>();
    byte[] log = write(records, offsets);
    log[offsets.get(1).intValue() + HEADER + 3] ^= 1;
    Collected c = read(log);
    assertPrefix(records, 1, c.records);
    assertEquals(1, c.reports.size());
    assertFalse(c.reports.get(0).atTail(), c.reports.toString());
    assertThrows(CorruptionException.class,
        () -> replay(log, WalRecoveryMode.TOLERATE_CORRUPTED_TAIL, new ArrayList<>()));
    // The same flip in the final record is a torn tail.
    byte[] log2 = write(records, new ArrayList<>());
    log2[offsets.get(2).intValue() + HEADER + 3] ^= 1;
    List<byte[]> out = new ArrayList<>();
    WalReplay.ReplayResult r = replay(log2, WalRecoveryMode.TOLERATE_CORRUPTED_TAIL, out);
    assertPrefix(records, 2, out);
    assertTrue(r.tornTail());
  }

  @Test
  void lengthOverrunningItsBlockIsDamageNotATornTail() throws IOException {
    Random random = new Random(18);
    List<byte[]> records = List.of(record(random, 100), record(random, 100));
    List<Long> offsets = new ArrayList<>();
    byte[] log = write(records, offsets);
    int header = offsets.get(1).intValue();
    log[header + 4] = (byte) 0xff;
    log[header + 5] = (byte) 0xff;
    Collected c = read(log);
    assertPrefix(records, 1, c.records);
    assertEquals(1, c.reports.size());
    assertFalse(c.reports.get(0).atTail());
    assertTrue(c.reports.get(0).reason().contains("overruns its block"), c.reports.get(0).reason());
  }

  @Test
  void orphanFragmentsAreReported() throws IOException {
    Random random = new Random(19);
    // A record spanning blocks 0..2; damage its FIRST fragment: MIDDLE and LAST become orphans.
    List<byte[]> records = List.of(record(random, 2 * BLOCK + 100), record(random, 10));
    byte[] log = write(records, new ArrayList<>());
    log[HEADER + 5] ^= 1;
    Collected c = read(log);
    assertEquals(1, c.records.size());
    assertArrayEquals(records.get(1), c.records.get(0));
    assertEquals(3, c.reports.size(), c.reports.toString());
    assertTrue(c.reports.get(1).reason().startsWith("missing start of fragmented record"));
    assertTrue(c.reports.get(2).reason().startsWith("missing start of fragmented record"));
  }

  /** Garbage and random damage: the reader never throws, replay throws only corruption. */
  @Test
  void garbageNeverProducesANonCorruptionException() throws IOException {
    long seed = Seeds.seed();
    Random random = new Random(seed);
    try {
      for (int round = 0; round < 300; round++) {
        byte[] log;
        List<byte[]> written = new ArrayList<>();
        if (round % 5 == 0) {
          log = record(random, random.nextInt(3 * BLOCK));
        } else {
          for (int i = 0, n = 1 + random.nextInt(30); i < n; i++) {
            written.add(record(random, random.nextInt(random.nextBoolean() ? 200 : 2 * BLOCK)));
          }
          log = write(written, new ArrayList<>());
          damage(random, log);
          if (random.nextBoolean()) {
            log = Arrays.copyOf(log, random.nextInt(log.length + 1));
          }
        }
        List<String> reports = new ArrayList<>();
        for (byte[] r : readAll(log, reports)) {
          assertTrue(written.stream().anyMatch(w -> Arrays.equals(w, r)), "a record nobody wrote was returned");
        }
        for (WalRecoveryMode mode : WalRecoveryMode.values()) {
          try {
            replay(log, mode, new ArrayList<>());
          } catch (CorruptionException expected) {
            assertEquals("test.log", expected.file());
            assertTrue(expected.offset() >= 0 && expected.offset() <= log.length, expected.getMessage());
          }
        }
      }
    } catch (AssertionError | RuntimeException e) {
      throw new AssertionError("failed with -Dcairn.seed=" + seed, e);
    }
  }

  private static void damage(Random random, byte[] log) {
    if (log.length == 0) {
      return;
    }
    for (int i = 0, n = 1 + random.nextInt(4); i < n; i++) {
      int at = random.nextInt(log.length);
      switch (random.nextInt(3)) {
        case 0 -> log[at] ^= (byte) (1 << random.nextInt(8));
        case 1 -> Arrays.fill(log, at, Math.min(log.length, at + random.nextInt(100)), (byte) 0);
        default -> {
          for (int j = at; j < Math.min(log.length, at + random.nextInt(20)); j++) {
            log[j] = (byte) random.nextInt();
          }
        }
      }
    }
  }
}
