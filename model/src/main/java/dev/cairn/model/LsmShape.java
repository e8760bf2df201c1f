package dev.cairn.model;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * An immutable picture of an LSM tree for compaction planning: levels {@code 0..n-1} and, per
 * level, the compaction pointer — the largest user key of the level's last size-triggered
 * compaction (LevelDB's {@code compact_pointer_}), or null if there was none. The next compaction
 * of that level starts after it, so compactions sweep the key space round-robin.
 *
 * <p>Invariants, checked on construction: level {@code i} is at index {@code i}; one pointer slot
 * per level; no file id appears twice. Per-level invariants are
 * {@link LevelShape}'s.
 */
public record LsmShape(List<LevelShape> levels, List<byte[]> compactionPointers) {

  public LsmShape {
    levels = List.copyOf(levels);
    if (levels.isEmpty()) {
      throw new IllegalArgumentException("a shape has at least one level");
    }
    for (int i = 0; i < levels.size(); i++) {
      if (levels.get(i).level() != i) {
        throw new IllegalArgumentException(
            "level at index " + i + " says it is L" + levels.get(i).level());
      }
    }
    if (compactionPointers.size() != levels.size()) {
      throw new IllegalArgumentException(
          compactionPointers.size() + " compaction pointers for " + levels.size() + " levels");
    }
    List<byte[]> copies = new ArrayList<>(compactionPointers.size());
    for (byte[] pointer : compactionPointers) {
      copies.add(pointer == null ? null : pointer.clone());
    }
    compactionPointers = Collections.unmodifiableList(copies);
    Set<Long> seen = new HashSet<>();
    for (LevelShape level : levels) {
      for (FileDescriptor f : level.files()) {
        checkUnique(seen, f, level.level());
      }
    }
  }

  private static void checkUnique(Set<Long> seen, FileDescriptor f, int level) {
    if (!seen.add(f.id())) {
      throw new IllegalArgumentException("file " + f.id() + " appears twice (again in L" + level + ")");
    }
  }

  /** A shape with the given levels and no compaction pointers. */
  public static LsmShape of(List<LevelShape> levels) {
    return new LsmShape(levels, Collections.nCopies(levels.size(), null));
  }

  public int numLevels() {
    return levels.size();
  }

  public LevelShape level(int level) {
    return levels.get(level);
  }

  /** A copy of the list; each key copied, null where a level has no pointer. */
  @Override
  public List<byte[]> compactionPointers() {
    List<byte[]> copies = new ArrayList<>(compactionPointers.size());
    for (byte[] pointer : compactionPointers) {
      copies.add(pointer == null ? null : pointer.clone());
    }
    return copies;
  }

  /** The level's compaction pointer (a copy), or null if the level has none. */
  public byte[] compactionPointer(int level) {
    byte[] pointer = compactionPointers.get(level);
    return pointer == null ? null : pointer.clone();
  }

  /** The files of the level's sorted runs: L0 newest first, deeper levels in key order. */
  public List<FileDescriptor> files(int level) {
    return levels.get(level).files();
  }

  /** Bytes in the level's sorted runs. */
  public long totalBytes(int level) {
    return levels.get(level).totalBytes();
  }

  /**
   * Valid bytes in the level's sorted runs: its data, without the superseded blocks appended
   * tables still hold (equal to {@link #totalBytes} where no table was appended to).
   */
  public long validBytes(int level) {
    return levels.get(level).validBytes();
  }

  /** Run files of {@code level} holding any key in {@code [smallest, largest]}; null = open. */
  public List<FileDescriptor> overlapping(int level, byte[] smallest, byte[] largest) {
    return levels.get(level).overlapping(smallest, largest);
  }

  /**
   * Whether any file below {@code level} may hold a key in {@code range}. If none does, {@code
   * level} is the bottommost level for that range and a merge writing into it may drop tombstones
   * (and older versions no snapshot needs).
   *
   * <p>Compaction buffers below do not count: a read consults a level's buffer only for a key
   * that one of the level's own files covers (docs/execution.md, "Reads"), so where no level
   * below has a file over the range, no buffer below is ever read for it, whatever stale data it
   * holds there; and where one has, that file already makes this true.
   */
  public boolean hasDataBelow(int level, KeyRange range) {
    for (int deeper = level + 1; deeper < levels.size(); deeper++) {
      LevelShape shape = levels.get(deeper);
      if (!shape.overlapping(range.smallestRef(), range.largestRef()).isEmpty()) {
        return true;
      }
    }
    return false;
  }

  /** The deepest level holding a file, or -1 for an empty tree. */
  public int deepestLevelWithFiles() {
    for (int level = numLevels() - 1; level >= 0; level--) {
      if (!files(level).isEmpty()) {
        return level;
      }
    }
    return -1;
  }

  /**
   * This shape with {@code level}'s files removed (pointers kept): what a picker sees when it
   * must plan below L0 only, say, because another rule owns L0.
   */
  public LsmShape withEmptyLevel(int level) {
    List<LevelShape> copy = new ArrayList<>(levels);
    copy.set(level, LevelShape.empty(level));
    return new LsmShape(copy, compactionPointers);
  }

  /** Every file id in the shape. */
  public Set<Long> fileIds() {
    Set<Long> ids = new HashSet<>();
    for (LevelShape level : levels) {
      level.files().forEach(f -> ids.add(f.id()));
    }
    return ids;
  }

  @Override
  public boolean equals(Object o) {
    if (!(o instanceof LsmShape s) || !levels.equals(s.levels)) {
      return false;
    }
    for (int i = 0; i < levels.size(); i++) {
      if (!Arrays.equals(compactionPointers.get(i), s.compactionPointers.get(i))) {
        return false;
      }
    }
    return true;
  }

  @Override
  public int hashCode() {
    int h = levels.hashCode();
    for (byte[] pointer : compactionPointers) {
      h = 31 * h + Arrays.hashCode(pointer);
    }
    return h;
  }

  @Override
  public String toString() {
    StringBuilder sb = new StringBuilder("LsmShape{");
    for (LevelShape level : levels) {
      sb.append(" L").append(level.level()).append('=').append(level.files());
      byte[] pointer = compactionPointers.get(level.level());
      if (pointer != null) {
        sb.append(" ptr=").append(UserKeyOrder.printable(pointer));
      }
    }
    return sb.append(" }").toString();
  }

  /** Builds a shape level by level; levels not set are empty. */
  public static Builder builder(int numLevels) {
    return new Builder(numLevels);
  }

  /** A mutable helper for callers that translate their own version into a shape. */
  public static final class Builder {
    private final LevelShape[] levels;
    private final byte[][] pointers;

    private Builder(int numLevels) {
      if (numLevels < 1) {
        throw new IllegalArgumentException("numLevels must be >= 1: " + numLevels);
      }
      levels = new LevelShape[numLevels];
      pointers = new byte[numLevels][];
    }

    /** Sets the level's files (any order, see {@link LevelShape#of}). */
    public Builder level(int level, List<FileDescriptor> files) {
      levels[level] = LevelShape.of(level, files);
      return this;
    }

    public Builder level(LevelShape shape) {
      levels[shape.level()] = shape;
      return this;
    }

    public Builder compactionPointer(int level, byte[] key) {
      pointers[level] = key == null ? null : key.clone();
      return this;
    }

    public LsmShape build() {
      List<LevelShape> list = new ArrayList<>(levels.length);
      for (int i = 0; i < levels.length; i++) {
        list.add(levels[i] == null ? LevelShape.empty(i) : levels[i]);
      }
      return new LsmShape(list, Arrays.asList(pointers.clone()));
    }
  }
}
