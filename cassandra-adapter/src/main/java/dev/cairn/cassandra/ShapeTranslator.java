package dev.cairn.cassandra;

import dev.cairn.model.FileDescriptor;
import dev.cairn.model.KeyRange;
import dev.cairn.model.LevelShape;
import dev.cairn.model.LsmShape;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * The live SSTables of one strategy instance as Cairn's {@link LsmShape}.
 *
 * <ul>
 *   <li>Each SSTable goes to the level its metadata records; L0 is ordered newest first by
 *       creation order (Cassandra reconciles cells by timestamp, so the order is only the
 *       schedulers' notion of "fresh", never a correctness matter as it is in Cairn's engine).
 *   <li>An SSTable of L1 or deeper that overlaps another of its level goes to L0 in the model,
 *       as LCS's manifest sends it there (after a repair moves SSTables between sets, say).
 *       Among overlapping ones the older keeps its level.
 *   <li>Keys are {@link TokenKeys}; sizes are bytes on disk; nothing is cached in the model's
 *       sense ({@code cachedFraction} 0): Cassandra does not expose residency per SSTable, and
 *       the read rates ({@link dev.cairn.cassandra.hot.ReadHeat}) stand in for it.
 *   <li>The model has LCS's nine levels; a deeper level, which LCS never writes, would be read
 *       as the deepest.
 * </ul>
 */
public final class ShapeTranslator {
  private ShapeTranslator() {}

  public static LsmShape translate(List<SSTableFacts> sstables, int numLevels, List<byte[]> pointers) {
    List<List<FileDescriptor>> levels = new ArrayList<>();
    for (int i = 0; i < numLevels; i++) {
      levels.add(new ArrayList<>());
    }
    List<SSTableFacts> oldestFirst = new ArrayList<>(sstables);
    oldestFirst.sort(Comparator.comparingLong(SSTableFacts::age).thenComparingLong(SSTableFacts::id));
    for (SSTableFacts s : oldestFirst) {
      FileDescriptor f = new FileDescriptor(s.id(), s.firstKey(), s.lastKey(), s.bytes(),
          s.estimatedKeys(), s.bytes(), 0.0, s.age(), s.age());
      int level = Math.min(s.level(), numLevels - 1);
      if (level > 0 && overlapsAny(levels.get(level), f)) {
        level = 0;
      }
      levels.get(level).add(f);
    }
    List<LevelShape> shapes = new ArrayList<>();
    for (int i = 0; i < numLevels; i++) {
      shapes.add(LevelShape.of(i, levels.get(i)));
    }
    return new LsmShape(shapes, pointers);
  }

  private static boolean overlapsAny(List<FileDescriptor> level, FileDescriptor f) {
    KeyRange range = KeyRange.spanning(List.of(f));
    for (FileDescriptor other : level) {
      if (range.overlaps(other)) {
        return true;
      }
    }
    return false;
  }
}
