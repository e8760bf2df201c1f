package dev.cairn.util;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class FixedListTest {
  @Test
  void copiesAndKeepsOrder() {
    List<String> source = new ArrayList<>(List.of("a", "b", "c"));
    FixedList<String> copy = FixedList.copyOf(source);
    source.set(0, "changed");
    assertEquals(List.of("a", "b", "c"), copy);
    assertEquals(3, copy.size());
    assertEquals("c", copy.get(2));
    assertEquals(List.of("a", "b", "c").hashCode(), copy.hashCode());
  }

  @Test
  void isImmutable() {
    FixedList<String> list = FixedList.copyOf(List.of("a"));
    assertThrows(UnsupportedOperationException.class, () -> list.add("b"));
    assertThrows(UnsupportedOperationException.class, () -> list.set(0, "b"));
    assertThrows(UnsupportedOperationException.class, () -> list.remove(0));
    assertThrows(UnsupportedOperationException.class, list::clear);
    assertThrows(IndexOutOfBoundsException.class, () -> list.get(1));
  }

  @Test
  void refusesNullElements() {
    NullPointerException e = assertThrows(NullPointerException.class,
        () -> FixedList.copyOf(Arrays.asList("a", null)));
    assertEquals("null element", e.getMessage());
  }

  @Test
  void emptyIsShared_andCopyOfACopyIsTheSame() {
    assertSame(FixedList.empty(), FixedList.copyOf(List.of()));
    assertTrue(FixedList.copyOf(new ArrayList<String>()).isEmpty());
    FixedList<String> once = FixedList.copyOf(List.of("x", "y"));
    assertSame(once, FixedList.copyOf(once));
  }
}
