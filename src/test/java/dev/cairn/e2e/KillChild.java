package dev.cairn.e2e;

import dev.cairn.Cairn;
import dev.cairn.CounterOperator;
import dev.cairn.MergeOperator;
import dev.cairn.WriteBatch;
import dev.cairn.Options;
import dev.cairn.testing.EngineCombo.CompactionScheduler;
import dev.cairn.testing.EngineCombo.CompactionStyle;
import dev.cairn.WriteOptions;
import dev.cairn.testing.EngineCombo;
import java.io.PrintStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Random;

/**
 * The child process of {@link KillTest}. Arguments: the database directory, the first key, and
 * the engine combination ({@link EngineCombo#toString()}, e.g. {@code BLOCK/DLC}). It opens the
 * database, prints "open", then for {@code i = start, start+1, ...} puts key {@code i} synced and
 * prints {@code i} once the put returned (acknowledged), with unsynced filler puts that keep
 * flushes and compactions busy. The synced put's batch also adds one to counter {@code i %}
 * {@link #COUNTERS} ({@link Cairn#merge}), so that the counters' operands, merged by flushes'
 * successors and compactions, are in flight at every kill too, and range-deletes a key {@code
 * gone-i} put unsynced just before it, so that range tombstones are too. It runs until it is killed. What
 * it adds per combination:
 *
 * <ul>
 *   <li>{@code BLOCK}: the filler overwrites a fixed key space, so that compactions dirty blocks of
 *       deeper tables and append merged blocks to them (rather than only adding new keys at the
 *       end);
 *   <li>{@code BUFFER}: before each synced put, an unsynced overwrite of one of {@link #HOT_KEYS}
 *       hot keys carrying the step; after it, gets of a hot key and of an older key, which keep
 *       their blocks cached while the 10 ms trim drops cold files, so buffered merges, markers and
 *       trims are all in flight at the kill;
 *   <li>{@code DLC}: a get of the key just written per step; each get counts as a gigabyte of
 *       client I/O ({@link EngineCombo#dlc()}), so DLC sees a high load within an interval or two,
 *       holds L0 back and runs its bursty part and full compactions while the parent kills it.
 * </ul>
 */
public final class KillChild {
  static final int HOT_KEYS = 64;
  /** Counters merged into, one per step. */
  static final int COUNTERS = 4;
  /** The fixed filler key space under BLOCK. */
  private static final int BLOCK_FILLER_SLOTS = 997;

  private KillChild() {}

  /** The child's options, also the ones the parent reopens with. */
  static Options options(EngineCombo combo) {
    return combo.apply(Options.builder()
        .memtableBytes(64 << 10)
        .targetFileBytes(32 << 10)
        .baseLevelBytes(128 << 10)
        .l0CompactionTrigger(2)
        .blockBytes(512)
        .blockCacheBytes(256 << 10)
        .backgroundThreads(3)
        .mergeOperator(MergeOperator.counter()))
        .build();
  }

  static byte[] key(long i) {
    return String.format("ack-%012d", i).getBytes(StandardCharsets.US_ASCII);
  }

  static byte[] counterKey(long slot) {
    return String.format("count-%d", slot).getBytes(StandardCharsets.US_ASCII);
  }

  static byte[] goneKey(long i) {
    return String.format("gone-%012d", i).getBytes(StandardCharsets.US_ASCII);
  }

  /** The end of the range that deletes {@link #goneKey(long)} {@code i} alone. */
  static byte[] goneEnd(long i) {
    return String.format("gone-%012d~", i).getBytes(StandardCharsets.US_ASCII);
  }

  static byte[] fillerKey(long slot, int j) {
    return String.format("fill-%012d-%d", slot, j).getBytes(StandardCharsets.US_ASCII);
  }

  static byte[] value(long i) {
    byte[] v = new byte[100];
    new Random(i).nextBytes(v);
    return v;
  }

  static byte[] hotKey(long slot) {
    return String.format("hot-%03d", slot).getBytes(StandardCharsets.US_ASCII);
  }

  /** The step that last wrote a hot key: its value's first 8 bytes. */
  static long step(byte[] hotValue) {
    return ByteBuffer.wrap(hotValue).getLong();
  }

  public static void main(String[] args) {
    Path dir = Path.of(args[0]);
    long start = Long.parseLong(args[1]);
    EngineCombo combo = EngineCombo.parse(args[2]);
    boolean block = combo.style() == CompactionStyle.BLOCK;
    boolean buffer = combo.style() == CompactionStyle.BUFFER;
    boolean dlc = combo.scheduler() == CompactionScheduler.DLC;
    int fillers = buffer || dlc ? 20 : 5;
    byte[] pad = new byte[200];
    PrintStream out = new PrintStream(System.out, true);
    Cairn db = Cairn.open(dir, options(combo));
    out.println("open");
    for (long i = start; ; i++) {
      if (buffer) {
        // Before the synced put, so that acknowledging i makes hot write i durable too.
        db.put(hotKey(i % HOT_KEYS), ByteBuffer.allocate(8 + pad.length).putLong(i).put(pad).array(), WriteOptions.NO_SYNC);
      }
      db.put(goneKey(i), value(i), WriteOptions.NO_SYNC);
      db.write(new WriteBatch().put(key(i), value(i)).merge(counterKey(i % COUNTERS), CounterOperator.encode(1))
          .deleteRange(goneKey(i), goneEnd(i)), WriteOptions.SYNC);
      out.println(i);
      long slot = block ? i % BLOCK_FILLER_SLOTS : i;
      for (int j = 0; j < fillers; j++) {
        db.put(fillerKey(slot, j), value(i * 10 + j), WriteOptions.NO_SYNC);
      }
      if (buffer) {
        db.get(hotKey((i * 7) % HOT_KEYS));
        db.get(key(i / 2));
      }
      if (dlc) {
        db.get(key(i));
      }
    }
  }
}
