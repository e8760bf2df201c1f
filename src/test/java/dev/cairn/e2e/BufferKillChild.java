package dev.cairn.e2e;

import dev.cairn.compaction.buffer.BufferConfig;
import dev.cairn.Options;
import dev.cairn.WriteOptions;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * The child process of {@link BufferKillTest}: {@link KillChild}'s synced writes and filler with
 * the LSbM compaction buffer, plus a synced overwrite of one of {@link #HOT_KEYS} hot keys per
 * step and gets of them. The overwrites make merges drop data (freezes), the gets keep the hot
 * keys' blocks cached while the 10 ms trim drops cold files, so appends, markers, freezes and
 * trims are all in flight when the parent kills the process.
 */
public final class BufferKillChild {
  static final int HOT_KEYS = 64;

  private BufferKillChild() {}

  static Options options() {
    return Options.builder()
        .memtableBytes(64 << 10)
        .targetFileBytes(32 << 10)
        .baseLevelBytes(128 << 10)
        .l0CompactionTrigger(2)
        .blockBytes(512)
        .blockCacheBytes(256 << 10)
        .compactionStyle(Options.CompactionStyle.BUFFER)
        .buffer(BufferConfig.defaults().withTrimIntervalMillis(10).withTrimCachedFraction(0.3).withTrimUnitBytes(4096))
        .build();
  }

  static byte[] hotKey(long slot) {
    return String.format("hot-%03d", slot).getBytes(StandardCharsets.US_ASCII);
  }

  /** The step that last wrote a hot key: its value's first 8 bytes. */
  static long step(byte[] hotValue) {
    return ByteBuffer.wrap(hotValue).getLong();
  }

  public static void main(String[] args) {
    byte[] pad = new byte[200];
    KillChild.run(args, options(), (db, i) -> {
      KillChild.filler(db, i, i, 20);
      db.put(hotKey(i % HOT_KEYS), ByteBuffer.allocate(8 + pad.length).putLong(i).put(pad).array(), WriteOptions.NO_SYNC);
    }, (db, i) -> {
      db.get(hotKey((i * 7) % HOT_KEYS));
      db.get(KillTest.key(i / 2));
    });
  }
}
