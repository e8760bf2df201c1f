package dev.cairn.key;

import dev.cairn.model.UserKeyOrder;
import java.util.Arrays;
import java.util.Comparator;

/**
 * User keys are compared as unsigned bytes. The order is defined once, in the compaction model's
 * {@link UserKeyOrder} (core depends on compaction, not the other way round); this class is the
 * engine's name for it.
 */
public final class UserKeys {
  public static final Comparator<byte[]> COMPARATOR = UserKeyOrder.COMPARATOR;
  /** The longest user key ({@code Options.MAX_KEY_BYTES}): the manifest and index carry keys whole. */
  public static final int MAX_BYTES = 64 * 1024;

  private UserKeys() {}

  public static int compare(byte[] a, byte[] b) {
    return Arrays.compareUnsigned(a, b);
  }

  /**
   * Refuses, with a message that names the problem, a key that is null, empty or longer than
   * {@link #MAX_BYTES}: the checks every write and read of a user key starts with.
   */
  public static void checkValid(byte[] key) {
    if (key == null) {
      throw new IllegalArgumentException("key must not be null");
    }
    if (key.length == 0) {
      throw new IllegalArgumentException("key must not be empty");
    }
    if (key.length > MAX_BYTES) {
      throw new IllegalArgumentException("key of " + key.length + " bytes exceeds the limit of " + MAX_BYTES);
    }
  }

  /** A readable rendering for messages and dumps: printable ASCII as is, other bytes as \xNN. */
  public static String printable(byte[] key) {
    return UserKeyOrder.printable(key);
  }
}
