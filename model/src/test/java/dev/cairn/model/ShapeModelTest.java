package dev.cairn.model;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The model rejects shapes that break its invariants and never shares a mutable key. */
class ShapeModelTest {

  private static byte[] k(String s) {
    return s.getBytes(StandardCharsets.US_ASCII);
  }

  private static FileDescriptor f(long id, String lo, String hi) {
    return FileDescriptor.of(id, k(lo), k(hi), 100, id);
  }

  @Test
  void fileDescriptorValidates() {
    assertThrows(IllegalArgumentException.class, () -> f(1, "b", "a"));
    assertThrows(IllegalArgumentException.class, () -> f(-1, "a", "b"));
    assertThrows(IllegalArgumentException.class,
        () -> new FileDescriptor(1, k("a"), k("b"), 10, 0, 11, 0.0, 1, 1));
    assertThrows(IllegalArgumentException.class,
        () -> new FileDescriptor(1, k("a"), k("b"), 10, 0, 10, Double.NaN, 1, 1));
    assertThrows(IllegalArgumentException.class,
        () -> new FileDescriptor(1, k("a"), k("b"), 10, 0, 10, 1.5, 1, 1));
    assertThrows(IllegalArgumentException.class,
        () -> new FileDescriptor(1, null, k("b"), 10, 0, 10, 0.5, 1, 1));
  }

  @Test
  void keysAreCopiedInAndOut() {
    byte[] lo = k("a");
    FileDescriptor file = FileDescriptor.of(1, lo, k("c"), 10, 1);
    lo[0] = 'z';
    assertArrayEquals(k("a"), file.smallestKey());
    file.smallestKey()[0] = 'z';
    assertArrayEquals(k("a"), file.smallestKey());
    assertEquals(f(1, "a", "c").range(), file.range());
  }

  @Test
  void overlapIsInclusiveAndOpenBoundsWork() {
    FileDescriptor file = f(1, "c", "e");
    assertTrue(file.overlaps(k("e"), k("g")));
    assertTrue(file.overlaps(k("a"), k("c")));
    assertFalse(file.overlaps(k("f"), null));
    assertTrue(file.overlaps(null, k("c")));
    assertTrue(file.overlaps(null, null));
  }

  @Test
  void sortedRunRejectsOverlapAndTouching() {
    assertThrows(IllegalArgumentException.class, () -> SortedRun.of(f(1, "a", "c"), f(2, "b", "d")));
    // Sharing a user key across two files of a run is not allowed (see SortedRun's Javadoc).
    assertThrows(IllegalArgumentException.class, () -> SortedRun.of(f(1, "a", "c"), f(2, "c", "d")));
    assertThrows(IllegalArgumentException.class, () -> SortedRun.of(f(2, "d", "e"), f(1, "a", "c")));
    SortedRun run = SortedRun.of(f(1, "a", "c"), f(2, "d", "f"), f(3, "h", "k"));
    assertEquals(List.of(2L, 3L), run.overlapping(k("e"), k("h")).stream().map(FileDescriptor::id).toList());
    assertEquals(List.of(), run.overlapping(k("g"), k("g")));
    assertEquals(3, run.overlapping(null, null).size());
    assertEquals(300, run.totalBytes());
  }

  @Test
  void keysCompareUnsigned() {
    // 0x80 sorts after 0x7f; a signed comparison would call this run out of order.
    FileDescriptor low = FileDescriptor.of(1, new byte[] {0x10}, new byte[] {0x7f}, 1, 1);
    FileDescriptor high = FileDescriptor.of(2, new byte[] {(byte) 0x80}, new byte[] {(byte) 0xff}, 1, 2);
    SortedRun run = SortedRun.of(low, high);
    assertEquals(List.of(high), run.overlapping(new byte[] {(byte) 0x90}, null));
    assertThrows(IllegalArgumentException.class, () -> SortedRun.of(high, low));
  }

  @Test
  void levelShapeChecksL0OrderAndSingleRunBelow() {
    assertThrows(IllegalArgumentException.class,
        () -> new LevelShape(0, List.of(SortedRun.of(f(1, "a", "b")), SortedRun.of(f(2, "a", "b")))));
    assertThrows(IllegalArgumentException.class,
        () -> new LevelShape(0, List.of(SortedRun.of(f(1, "a", "b"), f(2, "c", "d")))));
    assertThrows(IllegalArgumentException.class,
        () -> new LevelShape(1, List.of(SortedRun.of(f(1, "a", "b")), SortedRun.of(f(2, "c", "d")))));
    assertThrows(IllegalArgumentException.class,
        () -> new LevelShape(1, List.of(new SortedRun(List.of()))));
    LevelShape l0 = LevelShape.of(0, List.of(f(1, "a", "b"), f(3, "a", "b"), f(2, "x", "y")));
    assertEquals(List.of(3L, 2L, 1L), l0.files().stream().map(FileDescriptor::id).toList());
    assertThrows(IllegalArgumentException.class,
        () -> LevelShape.of(2, List.of(f(1, "a", "c"), f(2, "b", "d"))));
  }

  @Test
  void lsmShapeChecksLevelsAndUniqueIds() {
    assertThrows(IllegalArgumentException.class,
        () -> LsmShape.of(List.of(LevelShape.empty(0), LevelShape.empty(2))));
    assertThrows(IllegalArgumentException.class,
        () -> LsmShape.builder(3).level(0, List.of(f(1, "a", "b"))).level(2, List.of(f(1, "c", "d")))
            .build());
    assertThrows(IllegalArgumentException.class,
        () -> new LsmShape(List.of(LevelShape.empty(0)), List.of()));
    LsmShape shape = LsmShape.builder(3)
        .level(1, List.of(f(1, "a", "c"), f(2, "d", "f")))
        .level(2, List.of(f(9, "x", "z")))
        .compactionPointer(1, k("c"))
        .build();
    assertEquals(200, shape.totalBytes(1));
    assertArrayEquals(k("c"), shape.compactionPointer(1));
    assertNull(shape.compactionPointer(0));
    assertTrue(shape.hasDataBelow(1, new KeyRange(k("y"), k("y"))));
    assertFalse(shape.hasDataBelow(1, new KeyRange(k("a"), k("w"))));
    assertTrue(shape.hasDataBelow(0, new KeyRange(k("a"), k("a"))));
    assertEquals(Set.of(1L, 2L, 9L), shape.fileIds());
    LsmShape same = LsmShape.builder(3)
        .level(1, List.of(f(2, "d", "f"), f(1, "a", "c")))
        .level(2, List.of(f(9, "x", "z")))
        .compactionPointer(1, k("c"))
        .build();
    assertEquals(shape, same);
    assertEquals(shape.hashCode(), same.hashCode());
    shape.compactionPointers().get(1)[0] = 'q';
    assertTrue(Arrays.equals(k("c"), shape.compactionPointer(1)));
  }
}
