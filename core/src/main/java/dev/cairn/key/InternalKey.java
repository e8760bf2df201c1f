package dev.cairn.key;

import dev.cairn.util.Coding;
import java.util.Arrays;

/**
 * An internal key is the user key followed by an 8-byte little-endian trailer
 * {@code (sequence << 8) | type}. Internal keys order by user key ascending (unsigned bytewise),
 * then by trailer descending, so that the newest entry for a user key comes first.
 *
 * <pre>
 *   +----------------+--------------------------------+
 *   | user key bytes | fixed64 LE: sequence<<8 | type |
 *   +----------------+--------------------------------+
 * </pre>
 */
public final class InternalKey {
  public static final int TRAILER_BYTES = 8;
  /** Sequences are 56 bits. */
  public static final long MAX_SEQUENCE = (1L << 56) - 1;

  private InternalKey() {}

  public static byte[] encode(byte[] userKey, long sequence, ValueType type) {
    assert sequence >= 0 && sequence <= MAX_SEQUENCE : "sequence out of range: " + sequence;
    byte[] out = Arrays.copyOf(userKey, userKey.length + TRAILER_BYTES);
    Coding.putFixed64(out, userKey.length, packTrailer(sequence, type));
    return out;
  }

  /** The smallest internal key for {@code userKey} visible at {@code snapshotSequence}. */
  public static byte[] seekKey(byte[] userKey, long snapshotSequence) {
    return encode(userKey, snapshotSequence, ValueType.FOR_SEEK);
  }

  public static long packTrailer(long sequence, ValueType type) {
    return (sequence << 8) | type.persistentId();
  }

  public static int userKeyLength(byte[] internalKey) {
    return internalKey.length - TRAILER_BYTES;
  }

  public static byte[] userKey(byte[] internalKey) {
    return Arrays.copyOf(internalKey, internalKey.length - TRAILER_BYTES);
  }

  public static long trailer(byte[] internalKey) {
    return Coding.getFixed64(internalKey, internalKey.length - TRAILER_BYTES);
  }

  public static long sequence(byte[] internalKey) {
    return trailer(internalKey) >>> 8;
  }

  /** The entry's type, or null if the type byte is unknown (a corrupt key). */
  public static ValueType type(byte[] internalKey) {
    return typeOf(trailer(internalKey));
  }

  /** The value type a trailer ({@code sequence << 8 | type}) carries, or null if unknown. */
  public static ValueType typeOf(long trailer) {
    return ValueType.fromPersistentId((int) (trailer & 0xff));
  }

  /** Whether the internal key is structurally valid (long enough and a known type). */
  public static boolean isValid(byte[] internalKey) {
    return internalKey.length >= TRAILER_BYTES && type(internalKey) != null;
  }

  /**
   * Whether the internal key is a valid point entry: {@link #isValid} and not a range deletion,
   * which a table keeps in a block of its own, never among its data and index entries.
   */
  public static boolean isValidPointEntry(byte[] internalKey) {
    if (internalKey.length < TRAILER_BYTES) {
      return false;
    }
    ValueType type = type(internalKey); // once: every key a block iterator decodes is checked
    return type != null && type != ValueType.RANGE_DELETION;
  }

  /** Compares only the user-key parts of two internal keys. */
  public static int compareUserKeys(byte[] a, byte[] b) {
    return Arrays.compareUnsigned(
        a, 0, a.length - TRAILER_BYTES, b, 0, b.length - TRAILER_BYTES);
  }

  /**
   * Compares a user key with the user-key part of an internal key, without materializing the
   * latter (a point read compares its key with every file boundary it passes).
   */
  public static int compareUserKey(byte[] userKey, byte[] internalKey) {
    return Arrays.compareUnsigned(
        userKey, 0, userKey.length, internalKey, 0, internalKey.length - TRAILER_BYTES);
  }

  public static String describe(byte[] internalKey) {
    if (internalKey.length < TRAILER_BYTES) {
      return "<bad internal key of " + internalKey.length + " bytes>";
    }
    return UserKeys.printable(userKey(internalKey)) + "@" + sequence(internalKey) + ":" + type(internalKey);
  }
}
