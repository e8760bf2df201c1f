package dev.cairn.compaction;

import dev.cairn.model.FileDescriptor;
import dev.cairn.model.UserKeyOrder;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * Where a merge's output files end, decided key by key as the merge writes (pure: the caller
 * passes each new user key and the bytes of the output file it would go into). Two rules, both
 * about the grandparent level ({@code n + 2} for a merge into {@code n + 1}), whose files the
 * outputs will later be merged into:
 *
 * <ol>
 *   <li><b>Bounded overlap</b> (LevelDB's {@code ShouldStopBefore}): end the file once it overlaps
 *       more than {@link OutputLimits#maxGrandparentOverlapBytes()} of the grandparent level, so
 *       that its own later compaction stays bounded.
 *   <li><b>Aligned ends</b> (the idea of RocksDB 7.x's output alignment, our rule): once the file
 *       holds at least {@code alignFraction} of {@link OutputLimits#targetFileBytes()}, end it
 *       where the keys step past a grandparent file's last key. A file that ends just past a
 *       grandparent boundary drags that whole grandparent file into its next compaction for a
 *       few of its keys; ending at the boundary leaves those keys to the neighbour, which
 *       overlaps that grandparent file anyway. A file may end up to {@code 1 - alignFraction}
 *       short of the target, so this trades a few more, smaller files for less rewriting below.
 * </ol>
 *
 * The target size itself is the output writer's rule and not repeated here. Not thread-safe: one
 * instance per merge.
 */
public final class OutputCuts {
  /** The default share of the target size from which a file ends at a grandparent boundary. */
  public static final double DEFAULT_ALIGN_FRACTION = 0.5;

  /** The grandparents' largest keys and sizes, copied once (a descriptor's keys are copies). */
  private final byte[][] largestKeys;
  private final long[] sizes;
  private final long maxOverlapBytes;
  private final long alignFromBytes;
  private int index;
  private boolean seenKey;
  private long overlappedBytes;

  /**
   * @param grandparents the grandparent level's files overlapping the merge, in key order
   * @param alignFraction in (0, 1] to align ends from that share of the target size; 0 turns
   *     alignment off (LevelDB's rule alone)
   */
  public OutputCuts(List<FileDescriptor> grandparents, OutputLimits limits, double alignFraction) {
    Objects.requireNonNull(grandparents, "grandparents");
    Objects.requireNonNull(limits, "limits");
    if (!(alignFraction >= 0 && alignFraction <= 1)) {
      throw new IllegalArgumentException("alignFraction must be in [0, 1]: " + alignFraction);
    }
    this.maxOverlapBytes = limits.maxGrandparentOverlapBytes();
    this.alignFromBytes = alignFraction == 0
        ? Long.MAX_VALUE
        : (long) Math.ceil(alignFraction * limits.targetFileBytes());
    largestKeys = new byte[grandparents.size()][];
    sizes = new long[grandparents.size()];
    for (int i = 0; i < grandparents.size(); i++) {
      FileDescriptor f = grandparents.get(i);
      if (i > 0 && UserKeyOrder.compare(largestKeys[i - 1], f.smallestKey()) >= 0) {
        throw new IllegalArgumentException(
            "grandparent files overlap or are out of order: " + grandparents.get(i - 1).id() + ", " + f.id());
      }
      largestKeys[i] = f.largestKey();
      sizes[i] = f.sizeBytes();
    }
  }

  /**
   * Whether to end the current output file before the user key {@code key[0, keyLength)}, which is
   * greater than every key passed before (the caller asks once per new user key, where a cut is
   * allowed). {@code outputBytes} is the current file's size so far, or 0 when a new file starts
   * at this key anyway (none open yet, or the previous one reached the target size); the answer is
   * then false and the overlap count starts afresh.
   */
  public boolean cutBefore(byte[] key, int keyLength, long outputBytes) {
    boolean crossed = false;
    while (index < largestKeys.length && compare(key, keyLength, largestKeys[index]) > 0) {
      if (seenKey) {
        overlappedBytes += sizes[index];
        crossed = true;
      }
      index++;
    }
    seenKey = true;
    if (outputBytes == 0) {
      overlappedBytes = 0;
      return false;
    }
    boolean cut = overlappedBytes > maxOverlapBytes || (crossed && outputBytes >= alignFromBytes);
    if (cut) {
      overlappedBytes = 0;
    }
    return cut;
  }

  private static int compare(byte[] key, int keyLength, byte[] other) {
    return Arrays.compareUnsigned(key, 0, keyLength, other, 0, other.length);
  }
}
