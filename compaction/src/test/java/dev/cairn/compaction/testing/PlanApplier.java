package dev.cairn.compaction.testing;

import dev.cairn.compaction.CompactionPlan;
import dev.cairn.model.FileDescriptor;
import dev.cairn.model.KeyRange;
import dev.cairn.model.LevelShape;
import dev.cairn.model.LsmShape;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.function.LongSupplier;

/**
 * Executes a plan on a shape the way core's version edit would, minus the bytes: inputs and
 * targets leave, moved files reappear one level down, a merge leaves one new file
 * spanning the compaction's key range. Building the new shape re-checks every invariant, so
 * applying a bad plan (say, one whose output would overlap a neighbour) throws.
 */
public final class PlanApplier {
  private PlanApplier() {}

  public static LsmShape apply(LsmShape shape, CompactionPlan plan, LongSupplier ids) {
    Set<Long> gone = plan.fileIds();
    List<FileDescriptor> added = new ArrayList<>();
    if (plan.isMove()) {
      added.addAll(plan.inputs());
    } else {
      KeyRange range = plan.keyRange();
      long bytes = 0;
      long sequence = 0;
      for (List<FileDescriptor> group : List.of(plan.inputs(), plan.targets())) {
        for (FileDescriptor f : group) {
          bytes += f.sizeBytes();
          sequence = Math.max(sequence, f.largestSequence());
        }
      }
      long id = ids.getAsLong();
      added.add(new FileDescriptor(id, range.smallest(), range.largest(), bytes, 0, bytes, 0.0,
          id, sequence));
    }
    LsmShape.Builder builder = LsmShape.builder(shape.numLevels());
    for (int level = 0; level < shape.numLevels(); level++) {
      List<FileDescriptor> files = new ArrayList<>();
      for (FileDescriptor f : shape.files(level)) {
        if (!gone.contains(f.id())) {
          files.add(f);
        }
      }
      if (level == plan.outputLevel()) {
        files.addAll(added);
      }
      LevelShape rebuilt = LevelShape.of(level, files);
      builder.level(new LevelShape(level, rebuilt.runs()));
      builder.compactionPointer(level,
          level == plan.inputLevel() && plan.newCompactionPointer() != null
              ? plan.newCompactionPointer()
              : shape.compactionPointer(level));
    }
    return builder.build();
  }
}
