package dev.cairn.compaction;

import dev.cairn.model.FileDescriptor;
import dev.cairn.model.KeyRange;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * One compaction to run: which files, from where to where, and everything the executor needs to
 * decide on its own (how to cut outputs, whether tombstones may go).
 *
 * <p>Executing a {@link CompactionKind#TABLE_MERGE}: merge {@code inputs} and {@code targets},
 * write the result into {@code outputLevel} cut by {@code outputLimits} against
 * {@code grandparents}, then in one version edit delete inputs and targets, add the new files and
 * set {@code inputLevel}'s compaction pointer to {@code newCompactionPointer}. Executing a
 * {@link CompactionKind#TRIVIAL_MOVE}: the same edit, with the single input re-added unchanged at
 * {@code outputLevel}; {@link CompactionKind#LEVEL_MOVE}: the same for every input.
 *
 * @param kind what to do
 * @param inputLevel the level the compaction was picked for
 * @param outputLevel where the result goes ({@code inputLevel + 1} for leveled compactions)
 * @param inputs files of {@code inputLevel}; never empty. For L0, newest first.
 * @param targets files of {@code outputLevel} overlapping the inputs' key range, in key order;
 *     they are read and replaced (BlockDB calls them the target tables)
 * @param grandparents files of {@code outputLevel + 1} overlapping the whole compaction's key
 *     range, in key order; only used to cut output files
 * @param newCompactionPointer the key {@code inputLevel}'s compaction pointer takes when the plan
 *     is installed (the largest key of {@code inputs}); null if the plan does not move it
 * @param bottommost true if no file below {@code outputLevel} overlaps
 *     the compaction's key range: the executor may then drop tombstones and versions no snapshot
 *     can see, without looking at deeper levels itself
 * @param outputLimits where to cut output files
 * @param reason a human-readable line for logs and stats
 */
public record CompactionPlan(
    CompactionKind kind,
    int inputLevel,
    int outputLevel,
    List<FileDescriptor> inputs,
    List<FileDescriptor> targets,
    List<FileDescriptor> grandparents,
    byte[] newCompactionPointer,
    boolean bottommost,
    OutputLimits outputLimits,
    String reason) {

  public CompactionPlan {
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(outputLimits, "outputLimits");
    Objects.requireNonNull(reason, "reason");
    inputs = List.copyOf(inputs);
    targets = List.copyOf(targets);
    grandparents = List.copyOf(grandparents);
    if (inputLevel < 0 || outputLevel < inputLevel) {
      throw new IllegalArgumentException(
          "bad levels: input L" + inputLevel + ", output L" + outputLevel);
    }
    if (inputs.isEmpty()) {
      throw new IllegalArgumentException("a plan needs at least one input file");
    }
    Set<Long> ids = new HashSet<>();
    for (List<FileDescriptor> group : List.of(inputs, targets, grandparents)) {
      for (FileDescriptor f : group) {
        if (!ids.add(f.id())) {
          throw new IllegalArgumentException("file " + f.id() + " named twice in a plan");
        }
      }
    }
    if (kind == CompactionKind.TRIVIAL_MOVE
        && (inputs.size() != 1 || !targets.isEmpty() || outputLevel != inputLevel + 1)) {
      throw new IllegalArgumentException(
          "a trivial move takes one file one level down onto no overlapping file");
    }
    if (kind == CompactionKind.DELETE_ONLY && (!targets.isEmpty() || outputLevel != inputLevel)) {
      throw new IllegalArgumentException("a delete-only compaction deletes files of one level and writes none");
    }
    if (kind == CompactionKind.LEVEL_MOVE && (!targets.isEmpty() || outputLevel != inputLevel + 1)) {
      throw new IllegalArgumentException("a level move takes its files one level down onto no overlapping file");
    }
    newCompactionPointer = newCompactionPointer == null ? null : newCompactionPointer.clone();
  }

  @Override
  public byte[] newCompactionPointer() {
    return newCompactionPointer == null ? null : newCompactionPointer.clone();
  }

  /** This plan with another {@link #reason()}, for a scheduler that adds why it chose it. */
  public CompactionPlan withReason(String newReason) {
    return new CompactionPlan(kind, inputLevel, outputLevel, inputs, targets, grandparents,
        newCompactionPointer, bottommost, outputLimits, newReason);
  }

  public boolean isTrivialMove() {
    return kind == CompactionKind.TRIVIAL_MOVE;
  }

  /** Whether the plan only re-parents its inputs ({@code TRIVIAL_MOVE}, {@code LEVEL_MOVE}): no data is read or written. */
  public boolean isMove() {
    return kind == CompactionKind.TRIVIAL_MOVE || kind == CompactionKind.LEVEL_MOVE;
  }

  /** The key range of the inputs alone. */
  public KeyRange inputRange() {
    return KeyRange.spanning(inputs);
  }

  /** The key range the compaction rewrites: inputs and targets together. */
  public KeyRange keyRange() {
    List<FileDescriptor> all = new ArrayList<>(inputs);
    all.addAll(targets);
    return KeyRange.spanning(all);
  }

  /** Ids of the files the compaction reads and replaces; the caller marks them busy. */
  public Set<Long> fileIds() {
    Set<Long> ids = new HashSet<>();
    inputs.forEach(f -> ids.add(f.id()));
    targets.forEach(f -> ids.add(f.id()));
    return ids;
  }

  /** Bytes the compaction reads: inputs and targets (zero for a move or a delete-only compaction). */
  public long readBytes() {
    if (isMove() || kind == CompactionKind.DELETE_ONLY) {
      return 0;
    }
    long total = 0;
    for (FileDescriptor f : inputs) {
      total += f.sizeBytes();
    }
    for (FileDescriptor f : targets) {
      total += f.sizeBytes();
    }
    return total;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof CompactionPlan p
        && kind == p.kind
        && inputLevel == p.inputLevel
        && outputLevel == p.outputLevel
        && inputs.equals(p.inputs)
        && targets.equals(p.targets)
        && grandparents.equals(p.grandparents)
        && Arrays.equals(newCompactionPointer, p.newCompactionPointer)
        && bottommost == p.bottommost
        && outputLimits.equals(p.outputLimits)
        && reason.equals(p.reason);
  }

  @Override
  public int hashCode() {
    return Objects.hash(kind, inputLevel, outputLevel, inputs, targets)
        + 31 * Arrays.hashCode(newCompactionPointer);
  }

  @Override
  public String toString() {
    return kind + " L" + inputLevel + "->L" + outputLevel + " inputs=" + inputs
        + " targets=" + targets + " (" + reason + ")";
  }
}
