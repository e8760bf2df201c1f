package dev.cairn.table;

import dev.cairn.key.InternalKey;
import dev.cairn.key.ValueType;
import java.util.Arrays;

/**
 * Shortens index keys (docs/format.md section 4), like LevelDB's FindShortestSeparator. A shorter
 * separator makes the index smaller and faster to search; it must stay {@code >=} the block's last
 * key and {@code <} the next block's first key.
 */
final class Separators {
  private Separators() {}

  /**
   * A short internal key {@code s} with {@code lastOfBlock <= s < firstOfNext}. If a user key
   * {@code u} shorter than {@code lastOfBlock}'s exists with {@code user(lastOfBlock) < u <
   * user(firstOfNext)}, returns {@code u} with the largest trailer; otherwise {@code lastOfBlock}.
   *
   * <p>Requires: {@code lastOfBlock < firstOfNext} in internal-key order.
   */
  static byte[] shortestSeparator(byte[] lastOfBlock, byte[] firstOfNext) {
    int aLen = InternalKey.userKeyLength(lastOfBlock);
    int bLen = InternalKey.userKeyLength(firstOfNext);
    int min = Math.min(aLen, bLen);
    int diff = 0;
    while (diff < min && lastOfBlock[diff] == firstOfNext[diff]) {
      diff++;
    }
    if (diff >= min) {
      return lastOfBlock; // one user key is a prefix of the other: nothing shorter fits
    }
    int a = lastOfBlock[diff] & 0xff;
    int b = firstOfNext[diff] & 0xff;
    if (a + 1 < b && diff + 1 < aLen) {
      byte[] user = Arrays.copyOf(lastOfBlock, diff + 1);
      user[diff] = (byte) (a + 1);
      // u lies strictly between the two user keys, so any trailer orders it correctly; a fixed
      // one keeps a table's bytes independent of which value types exist.
      return InternalKey.encode(user, InternalKey.MAX_SEQUENCE, ValueType.VALUE);
    }
    return lastOfBlock;
  }
}
