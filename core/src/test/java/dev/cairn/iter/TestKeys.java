package dev.cairn.iter;

import dev.cairn.key.InternalKey;
import dev.cairn.key.ValueType;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/** Small helpers to spell keys in tests. */
public final class TestKeys {
  private TestKeys() {}

  public static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  public static String string(byte[] b) {
    return new String(b, StandardCharsets.UTF_8);
  }

  public static byte[] put(String userKey, long sequence) {
    return InternalKey.encode(bytes(userKey), sequence, ValueType.VALUE);
  }

  public static byte[] del(String userKey, long sequence) {
    return InternalKey.encode(bytes(userKey), sequence, ValueType.DELETION);
  }

  /** Renders the keys of an iterator from its current position as "key@seq:TYPE" strings. */
  public static List<String> drain(InternalIterator it) {
    List<String> out = new ArrayList<>();
    for (; it.isValid(); it.next()) {
      out.add(InternalKey.describe(it.key()));
    }
    return out;
  }
}
