package dev.cairn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/** A scanned entry prints its bytes, not its arrays' identities, and equals by content. */
class EntryTest {
  private static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  @Test
  void printsKeyAndValueAsEscapedText() {
    Entry e = new Entry(new byte[] {'k', 0, (byte) 0xff}, bytes("hello"));
    assertEquals("Entry[key=k\\x00\\xff, value=hello]", e.toString());
  }

  @Test
  void cutsALongValueAndSaysItsLength() {
    byte[] value = new byte[1000];
    Arrays.fill(value, (byte) 'v');
    String shown = new Entry(bytes("k"), value).toString();
    assertEquals("Entry[key=k, value=" + "v".repeat(Entry.SHOWN_BYTES) + "... (1000 bytes)]", shown);
  }

  @Test
  void equalsByContent() {
    Entry a = new Entry(bytes("k"), bytes("v"));
    Entry b = new Entry(bytes("k"), bytes("v"));
    assertEquals(a, b);
    assertEquals(a.hashCode(), b.hashCode());
    assertNotEquals(a, new Entry(bytes("k"), bytes("w")));
    assertNotEquals(a, new Entry(bytes("j"), bytes("v")));
  }
}
