package dev.cairn.compaction.testing;

import dev.cairn.compaction.ByteSizes;
import dev.cairn.compaction.leveled.LeveledConfig;
import dev.cairn.model.FileDescriptor;
import dev.cairn.model.LevelShape;
import dev.cairn.model.LsmShape;
import dev.cairn.model.UserKeyOrder;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;

/**
 * Random valid shapes for property tests. Keys are 1-2 bytes drawn from the whole byte range, so
 * unsigned comparison matters (0x80 and above sort after 0x7f).
 */
public final class RandomShapes {
  private final Random random;
  private long nextId = 1;

  public RandomShapes(Random random) {
    this.random = random;
  }

  public LeveledConfig config() {
    long target = (1 + random.nextInt(8)) * ByteSizes.KIB;
    return new LeveledConfig(
        3 + random.nextInt(5),
        1 + random.nextInt(6),
        (4 + random.nextInt(60)) * ByteSizes.KIB,
        2 + random.nextInt(9),
        target,
        target * random.nextInt(15),
        target * (1 + random.nextInt(30)));
  }

  public LsmShape shape(LeveledConfig config) {
    int levels = config.numLevels();
    LsmShape.Builder builder = LsmShape.builder(levels);
    long maxFile = 4 * config.targetFileBytes();
    List<FileDescriptor> l0 = new ArrayList<>();
    int l0Files = random.nextInt(2 * config.l0CompactionTrigger() + 1);
    for (int i = 0; i < l0Files; i++) {
      byte[] a = key();
      byte[] b = key();
      l0.add(file(UserKeyOrder.min(a, b), UserKeyOrder.max(a, b), maxFile));
    }
    builder.level(0, l0);
    for (int level = 1; level < levels; level++) {
      int files = random.nextInt(level == levels - 1 ? 40 : 4 + 6 * level);
      builder.level(LevelShape.of(level, disjointFiles(files, maxFile)));
      if (random.nextBoolean()) {
        builder.compactionPointer(level, key());
      }
    }
    if (random.nextBoolean()) {
      builder.compactionPointer(0, key());
    }
    return builder.build();
  }

  /** Roughly {@code fraction} of the shape's file ids. */
  public Set<Long> busy(LsmShape shape, double fraction) {
    Set<Long> busy = new HashSet<>();
    for (long id : shape.fileIds()) {
      if (random.nextDouble() < fraction) {
        busy.add(id);
      }
    }
    return busy;
  }

  public byte[] key() {
    byte[] key = new byte[1 + random.nextInt(2)];
    random.nextBytes(key);
    return key;
  }

  public long freshId() {
    return nextId++;
  }

  /** Up to {@code count} files with strictly increasing, non-touching key ranges. */
  private List<FileDescriptor> disjointFiles(int count, long maxFile) {
    TreeSet<byte[]> keys = new TreeSet<>(UserKeyOrder.COMPARATOR);
    for (int i = 0; i < 2 * count; i++) {
      keys.add(key());
    }
    List<byte[]> sorted = new ArrayList<>(keys);
    List<FileDescriptor> files = new ArrayList<>();
    for (int i = 0; i + 1 < sorted.size(); i += 2) {
      byte[] largest = random.nextInt(6) == 0 ? sorted.get(i) : sorted.get(i + 1);
      files.add(file(sorted.get(i), largest, maxFile));
    }
    return files;
  }

  private FileDescriptor file(byte[] smallest, byte[] largest, long maxFile) {
    long id = freshId();
    long size = 1 + (long) (random.nextDouble() * maxFile);
    return new FileDescriptor(id, smallest, largest, size, size / 100, size, random.nextDouble(),
        id, id);
  }
}
