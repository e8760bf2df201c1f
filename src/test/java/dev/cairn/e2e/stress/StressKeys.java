package dev.cairn.e2e.stress;

import dev.cairn.util.Coding;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.SplittableRandom;

/**
 * The key space and value encoding of the crash test. Thread {@code t} owns the keys
 * {@code "tNN/IIIIII~~"} (two-digit thread, six-digit key index, 0-4 {@code '~'} so key lengths
 * vary); no other thread writes them, which is what makes the expected state exact.
 *
 * <p>A value names what wrote it, so a recovered value can be traced to one issued operation:
 *
 * <pre>
 *   fixed32 thread | fixed32 key index | fixed64 version | filler (deterministic in the three)
 * </pre>
 *
 * The version is the index of the thread's operation that wrote it ({@link StressOp#index()});
 * the filler is mostly tens to hundreds of bytes and sometimes tens of KiB, so WAL records span
 * blocks and tables get large values too.
 */
final class StressKeys {
  static final int VALUE_HEADER_BYTES = 16;
  private static final byte[][] PREFIXES = new byte[100][];
  private static final byte[][] ENDS = new byte[100][];

  static {
    for (int t = 0; t < PREFIXES.length; t++) {
      PREFIXES[t] = String.format("t%02d/", t).getBytes(StandardCharsets.US_ASCII);
      ENDS[t] = String.format("t%02d0", t).getBytes(StandardCharsets.US_ASCII);
    }
  }

  private StressKeys() {}

  static byte[] key(int thread, int index) {
    byte[] prefix = PREFIXES[thread];
    int tildes = index % 5;
    byte[] key = Arrays.copyOf(prefix, prefix.length + 6 + tildes);
    int v = index;
    for (int i = prefix.length + 5; i >= prefix.length; i--) {
      key[i] = (byte) ('0' + v % 10);
      v /= 10;
    }
    Arrays.fill(key, prefix.length + 6, key.length, (byte) '~');
    return key;
  }

  /** The first possible key of {@code thread} (inclusive lower bound of its range). */
  static byte[] threadPrefix(int thread) {
    return PREFIXES[thread].clone();
  }

  /** The exclusive upper bound of {@code thread}'s keys: {@code '0'} sorts right after {@code '/'}. */
  static byte[] threadEnd(int thread) {
    return ENDS[thread].clone();
  }

  /** The key index encoded in {@code key} if it is a well-formed key of {@code thread}, else -1. */
  static int indexOf(int thread, byte[] key) {
    byte[] prefix = PREFIXES[thread];
    if (key.length < prefix.length + 6 || !Arrays.equals(key, 0, prefix.length, prefix, 0, prefix.length)) {
      return -1;
    }
    int index = 0;
    for (int i = prefix.length; i < prefix.length + 6; i++) {
      int d = key[i] - '0';
      if (d < 0 || d > 9) {
        return -1;
      }
      index = index * 10 + d;
    }
    return Arrays.equals(key, key(thread, index)) ? index : -1;
  }

  static byte[] value(int thread, int index, long version) {
    SplittableRandom r = new SplittableRandom(Mix.of(thread, index, version));
    int filler = r.nextInt(50) == 0 ? 2048 + r.nextInt(20 << 10) : 16 + r.nextInt(300);
    byte[] v = new byte[VALUE_HEADER_BYTES + filler];
    Coding.putFixed32(v, 0, thread);
    Coding.putFixed32(v, 4, index);
    Coding.putFixed64(v, 8, version);
    for (int i = VALUE_HEADER_BYTES; i < v.length; i += 8) {
      long bits = r.nextLong();
      for (int j = i; j < Math.min(i + 8, v.length); j++, bits >>>= 8) {
        v[j] = (byte) bits;
      }
    }
    return v;
  }

  /**
   * The version of a value read for ({@code thread}, {@code index}); -1 when the value is not
   * exactly one this test writes for that key (wrong owner, wrong key, or damaged bytes).
   */
  static long versionOf(int thread, int index, byte[] value) {
    if (value == null || value.length < VALUE_HEADER_BYTES
        || Coding.getFixed32(value, 0) != thread || Coding.getFixed32(value, 4) != index) {
      return -1;
    }
    long version = Coding.getFixed64(value, 8);
    return version > 0 && Arrays.equals(value, value(thread, index, version)) ? version : -1;
  }

  /** A short printable description of a value for failure messages. */
  static String describe(byte[] value) {
    if (value == null) {
      return "absent";
    }
    if (value.length < VALUE_HEADER_BYTES) {
      return value.length + " bytes (too short for a header)";
    }
    return "value{thread=" + Coding.getFixed32(value, 0) + ", key=" + Coding.getFixed32(value, 4)
        + ", version=" + Coding.getFixed64(value, 8) + ", " + value.length + " bytes}";
  }

  /** SplitMix64 finaliser over several inputs: independent streams per (seed, thread, op). */
  static final class Mix {
    private Mix() {}

    static long of(long... parts) {
      long h = 0x9E3779B97F4A7C15L;
      for (long p : parts) {
        h = finish(h ^ finish(p + 0x9E3779B97F4A7C15L));
      }
      return h;
    }

    private static long finish(long z) {
      z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
      z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
      return z ^ (z >>> 31);
    }
  }
}
