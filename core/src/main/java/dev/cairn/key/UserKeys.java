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

  private UserKeys() {}

  public static int compare(byte[] a, byte[] b) {
    return Arrays.compareUnsigned(a, b);
  }

  /** A readable rendering for messages and dumps: printable ASCII as is, other bytes as \xNN. */
  public static String printable(byte[] key) {
    return UserKeyOrder.printable(key);
  }
}
