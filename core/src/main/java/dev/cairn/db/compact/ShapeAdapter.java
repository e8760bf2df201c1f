package dev.cairn.db.compact;

import dev.cairn.cache.BlockCache;
import dev.cairn.model.FileDescriptor;
import dev.cairn.model.LsmShape;
import dev.cairn.version.FileMetaData;
import dev.cairn.version.Version;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Translates a {@link Version} into the compaction module's pure {@link LsmShape}, and keeps the
 * way back from a descriptor's id to the engine's {@link FileMetaData}.
 */
final class ShapeAdapter {
  private final LsmShape shape;
  private final Map<Long, FileMetaData> byNumber;

  private ShapeAdapter(LsmShape shape, Map<Long, FileMetaData> byNumber) {
    this.shape = shape;
    this.byNumber = byNumber;
  }

  /** Requires: mutex held (reads the compaction pointers of the version set). */
  static ShapeAdapter of(Version v, java.util.function.IntFunction<byte[]> compactPointer, BlockCache cache,
      int blockBytes) {
    LsmShape.Builder b = LsmShape.builder(v.numLevels());
    Map<Long, FileMetaData> byNumber = new HashMap<>();
    for (int level = 0; level < v.numLevels(); level++) {
      List<FileDescriptor> files = new ArrayList<>();
      for (FileMetaData f : v.files(level)) {
        files.add(describe(f, cache, blockBytes));
        byNumber.put(f.number(), f);
      }
      b.level(level, files);
      byte[] pointer = compactPointer.apply(level);
      if (pointer != null) {
        b.compactionPointer(level, pointer);
      }
    }
    return new ShapeAdapter(b.build(), byNumber);
  }

  static FileDescriptor describe(FileMetaData f, BlockCache cache, int blockBytes) {
    long blocks = Math.max(1, f.validBytes() / blockBytes);
    double cached = Math.min(1.0, (double) cache.cachedBlockCount(f.number()) / blocks);
    return new FileDescriptor(f.number(), f.smallestUserKey(), f.largestUserKey(), f.totalBytes(), f.entries(),
        f.validBytes(), cached, f.number(), f.largestSequence());
  }

  LsmShape shape() {
    return shape;
  }

  FileMetaData meta(FileDescriptor d) {
    FileMetaData f = byNumber.get(d.id());
    assert f != null : "plan names file " + d.id() + " that is not in the version it was planned on";
    return f;
  }

  List<FileMetaData> metas(List<FileDescriptor> ds) {
    return ds.stream().map(this::meta).toList();
  }
}
