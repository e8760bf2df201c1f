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

  /** Range tombstones from space-separated {@code from..to@sequence} tokens. */
  public static dev.cairn.key.RangeTombstones ranges(String spec) {
    List<dev.cairn.key.RangeTombstone> out = new java.util.ArrayList<>();
    for (String token : spec.trim().split("\\s+")) {
      String[] rangeAndSeq = token.split("@");
      String[] bounds = rangeAndSeq[0].split("\\.\\.");
      out.add(new dev.cairn.key.RangeTombstone(bytes(bounds[0]), bytes(bounds[1]), Long.parseLong(rangeAndSeq[1])));
    }
    return dev.cairn.key.RangeTombstones.of(out);
  }

  /** {@code ranges} as {@link #ranges} reads them, or "(none)". */
  public static String describe(dev.cairn.key.RangeTombstones ranges) {
    if (ranges.isEmpty()) {
      return "(none)";
    }
    List<String> parts = new java.util.ArrayList<>();
    ranges.all().forEach(t -> parts.add(string(t.from()) + ".." + string(t.to()) + "@" + t.sequence()));
    return String.join(" ", parts);
  }
}
