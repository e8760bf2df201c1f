package dev.cairn.cassandra;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.cairn.model.FileDescriptor;
import dev.cairn.model.LsmShape;
import java.nio.ByteBuffer;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;

class ShapeTranslatorTest {
  private static final List<byte[]> NO_POINTERS = Collections.nCopies(9, null);

  @Test
  void sstablesGoToTheirRecordedLevelsAndL0IsNewestFirst() {
    LsmShape shape = ShapeTranslator.translate(List.of(
        facts(1, 0, -100, 100, 1),
        facts(2, 0, -50, 50, 3),
        facts(3, 0, 0, 10, 2),
        facts(4, 1, -1000, -1, 0),
        facts(5, 1, 0, 1000, 0),
        facts(6, 2, Long.MIN_VALUE, Long.MAX_VALUE, 0)), 9, NO_POINTERS);
    assertEquals(List.of(2L, 3L, 1L), ids(shape.files(0)), "newest (largest age) first");
    assertEquals(List.of(4L, 5L), ids(shape.files(1)), "key order");
    assertEquals(List.of(6L), ids(shape.files(2)));
    assertEquals(9, shape.numLevels());
  }

  @Test
  void anSSTableOverlappingItsLevelIsModelledInL0AsLcsDoes() {
    LsmShape shape = ShapeTranslator.translate(List.of(
        facts(1, 1, 0, 100, 1),
        facts(2, 1, 50, 150, 2),
        facts(3, 1, 200, 300, 3)), 9, NO_POINTERS);
    assertEquals(List.of(1L, 3L), ids(shape.files(1)), "the older of the two keeps the level");
    assertEquals(List.of(2L), ids(shape.files(0)));
  }

  @Test
  void negativeTokensSortBeforePositiveOnes() {
    LsmShape shape = ShapeTranslator.translate(List.of(
        facts(1, 1, 5, 10, 1),
        facts(2, 1, -10, -5, 2)), 9, NO_POINTERS);
    assertEquals(List.of(2L, 1L), ids(shape.files(1)));
  }

  private static SSTableFacts facts(long id, int level, long firstToken, long lastToken, long age) {
    ByteBuffer key = ByteBuffer.wrap(new byte[] {1});
    return new SSTableFacts(id, level, TokenKeys.encode(firstToken, key),
        TokenKeys.encode(lastToken, key), 1000, 10, age);
  }

  private static List<Long> ids(List<FileDescriptor> files) {
    return files.stream().map(FileDescriptor::id).toList();
  }
}
