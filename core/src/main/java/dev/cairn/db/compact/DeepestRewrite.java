package dev.cairn.db.compact;

import dev.cairn.compaction.CompactionKind;
import dev.cairn.compaction.CompactionPlan;
import dev.cairn.compaction.OutputLimits;
import dev.cairn.db.base.Engine;
import dev.cairn.db.base.TableIterators;
import dev.cairn.model.FileDescriptor;
import dev.cairn.version.FileMetaData;
import dev.cairn.version.Version;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The last step of a manual compaction ({@link Compactions#compactRangeManually}): the deepest
 * level's files in the range that hold range tombstones, rewritten in place (a table merge from
 * that level into itself, RocksDB's bottommost-level rewrite). The steps before it bring the
 * range's data down onto those files, but nothing rewrites the deepest level itself, so a
 * tombstone that reached it with the data it covers (a snapshot kept both on the way down) would
 * keep both. Rewritten, the covered entries go in the tombstone's stripe, and at the bottom the
 * tombstones every reader sees go too.
 */
final class DeepestRewrite {
  private DeepestRewrite() {}

  /** Whether {@code plan} is such a rewrite: a table merge from a level into itself. */
  static boolean rewritesInPlace(CompactionPlan plan) {
    return plan.kind() == CompactionKind.TABLE_MERGE && plan.inputLevel() == plan.outputLevel();
  }

  /** Claims the rewrite of {@code level}'s files in {@code [from, to]} that hold tombstones; null if none does. */
  static Compactions.Claimed claim(Compactions compactions, Engine engine, int level, byte[] from, byte[] to) {
    Set<Long> withTombstones = new HashSet<>();
    Version pinned = engine.versions().refCurrent();
    try {
      // Found before the mutex is taken: the first look at a table may open it.
      for (FileMetaData f : pinned.overlappingFiles(level, from, to)) {
        if (!TableIterators.rangeTombstones(engine.tableCache(), List.of(f)).isEmpty()) {
          withTombstones.add(f.number());
        }
      }
    } finally {
      pinned.unref();
    }
    if (withTombstones.isEmpty()) {
      return null;
    }
    engine.mutex().lock();
    try {
      return compactions.claimWhenIdle(shape -> plan(shape.shape().files(level), shape, level, withTombstones, engine));
    } finally {
      engine.mutex().unlock();
    }
  }

  /** The rewrite of those of {@code files} still named {@code chosen}; null if none is left. */
  private static CompactionPlan plan(List<FileDescriptor> files, ShapeAdapter shape, int level, Set<Long> chosen,
      Engine engine) {
    int first = -1;
    int last = -1;
    for (int i = 0; i < files.size(); i++) {
      if (chosen.contains(files.get(i).id())) {
        first = first < 0 ? i : first;
        last = i;
      }
    }
    if (first < 0) {
      return null;
    }
    // The files between the chosen ones too: outputs span the whole run, which must not overlap a file left out.
    List<FileDescriptor> inputs = files.subList(first, last + 1);
    byte[] lo = inputs.get(0).smallestKey();
    byte[] hi = inputs.get(inputs.size() - 1).largestKey();
    boolean bottommost = true;
    for (int deeper = level + 1; deeper < shape.shape().numLevels(); deeper++) {
      for (FileDescriptor f : shape.shape().files(deeper)) {
        if (dev.cairn.model.UserKeyOrder.compare(f.smallestKey(), hi) <= 0
            && dev.cairn.model.UserKeyOrder.compare(f.largestKey(), lo) >= 0) {
          bottommost = false;
        }
      }
    }
    return new CompactionPlan(CompactionKind.TABLE_MERGE, level, level, inputs, List.of(), List.of(), null,
        bottommost, new OutputLimits(engine.options().targetFileBytes(), Long.MAX_VALUE),
        "manual: rewrite L" + level + "'s " + inputs.size() + " table(s) holding range tombstones");
  }
}
