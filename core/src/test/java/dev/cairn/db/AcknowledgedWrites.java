package dev.cairn.db;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.cairn.Cairn;
import dev.cairn.CairnIterator;
import dev.cairn.WriteBatch;
import dev.cairn.WriteOptions;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;

/**
 * The reference for fault tests: what the engine acknowledged (a value, or null for a delete),
 * plus the writes whose outcome is unknown because they failed mid-way (either value may be
 * found). Keys are {@code k00000}-style; values carry their key and a version so that a value
 * found under the wrong key is caught.
 */
final class AcknowledgedWrites {
  private final TreeMap<String, byte[]> acked = new TreeMap<>();
  /** key -> the value a failed write tried to set (null: delete); the old value is also fine. */
  private final Map<String, List<byte[]>> uncertain = new HashMap<>();
  private final Random random;
  private int version;
  private long verifiedReads;

  AcknowledgedWrites(Random random) {
    this.random = random;
  }

  static byte[] key(int i) {
    return String.format("k%05d", i).getBytes(StandardCharsets.UTF_8);
  }

  /** A value naming its key and a fresh version, padded to a random length. */
  byte[] newValue(byte[] key, int maxPad) {
    byte[] head = (new String(key, StandardCharsets.UTF_8) + "@" + (++version) + ":").getBytes(StandardCharsets.UTF_8);
    byte[] out = Arrays.copyOf(head, head.length + random.nextInt(maxPad + 1));
    for (int i = head.length; i < out.length; i++) {
      out[i] = (byte) ('a' + random.nextInt(26));
    }
    return out;
  }

  /** Puts (or, one time in five, deletes) a random key and records it once acknowledged. */
  void writeRandom(Cairn db, int keySpace, boolean sync) {
    byte[] key = key(random.nextInt(keySpace));
    WriteOptions o = sync ? WriteOptions.SYNC : WriteOptions.NO_SYNC;
    if (random.nextInt(5) == 0) {
      db.delete(key, o);
      acked.put(new String(key, StandardCharsets.UTF_8), null);
    } else {
      byte[] value = newValue(key, 200);
      db.put(key, value, o);
      acked.put(new String(key, StandardCharsets.UTF_8), value);
    }
  }

  /** A write expected to fail: its outcome is recorded as unknown before it is tried. */
  void attemptPut(Cairn db, byte[] key, byte[] value, WriteOptions o) {
    uncertain.computeIfAbsent(new String(key, StandardCharsets.UTF_8), k -> new ArrayList<>()).add(value);
    db.put(key, value, o);
    acked.put(new String(key, StandardCharsets.UTF_8), value);
  }

  /** A batch expected to fail (a record larger than one log block when {@code big}). */
  void attemptBatch(Cairn db, int keySpace, int count, WriteOptions o) {
    WriteBatch batch = new WriteBatch();
    Map<String, byte[]> values = new TreeMap<>();
    for (int i = 0; i < count; i++) {
      byte[] key = key(random.nextInt(keySpace));
      byte[] value = newValue(key, 2000);
      batch.put(key, value);
      values.put(new String(key, StandardCharsets.UTF_8), value);
    }
    values.forEach((k, v) -> uncertain.computeIfAbsent(k, x -> new ArrayList<>()).add(v));
    db.write(batch, o);
    acked.putAll(values);
  }

  int size() {
    return acked.size();
  }

  long verifiedReads() {
    return verifiedReads;
  }

  /**
   * Every acknowledged write is readable with exactly its value (or one a failed write tried);
   * a full scan returns nothing else and agrees with the point reads.
   */
  void verify(Cairn db) {
    for (Map.Entry<String, byte[]> e : acked.entrySet()) {
      byte[] key = e.getKey().getBytes(StandardCharsets.UTF_8);
      assertAllowed(e.getKey(), db.get(key));
    }
    TreeMap<String, byte[]> scanned = new TreeMap<>();
    try (CairnIterator it = db.iterator()) {
      for (it.seekToFirst(); it.isValid(); it.next()) {
        scanned.put(new String(it.key(), StandardCharsets.UTF_8), it.value());
      }
    }
    for (Map.Entry<String, byte[]> e : scanned.entrySet()) {
      assertTrue(acked.containsKey(e.getKey()) || uncertain.containsKey(e.getKey()),
          "scan returned a key never written: " + e.getKey());
      assertAllowed(e.getKey(), e.getValue());
    }
    for (Map.Entry<String, byte[]> e : acked.entrySet()) {
      if (e.getValue() != null && !uncertain.containsKey(e.getKey())) {
        assertTrue(scanned.containsKey(e.getKey()), "scan misses acknowledged key " + e.getKey());
      }
    }
  }

  private void assertAllowed(String key, byte[] found) {
    verifiedReads++;
    byte[] expected = acked.get(key);
    List<byte[]> maybe = uncertain.get(key);
    if (maybe == null) {
      if (expected == null) {
        assertEquals(null, found == null ? null : new String(found, StandardCharsets.UTF_8),
            "acknowledged delete of " + key + " lost");
      } else {
        assertArrayEquals(expected, found, "acknowledged value of " + key + " lost or corrupt");
      }
      return;
    }
    if (Arrays.equals(expected, found)) {
      return;
    }
    for (byte[] candidate : maybe) {
      if (Arrays.equals(candidate, found)) {
        return;
      }
    }
    fail("key " + key + " holds " + (found == null ? "nothing" : new String(found, StandardCharsets.UTF_8))
        + ", neither its acknowledged value nor one a failed write tried");
  }
}
