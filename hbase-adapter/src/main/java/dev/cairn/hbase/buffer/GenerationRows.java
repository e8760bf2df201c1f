package dev.cairn.hbase.buffer;

import java.util.ArrayList;
import java.util.List;

/**
 * The changed rows of a compaction-buffer generation (docs/adapters/hbase.md, "The compaction
 * buffer") after a compaction absorbs it: the compaction took earlier generations' outputs and
 * other files as inputs, and its output's generation has as leaves the earlier generations'
 * leaves (numbered first, generation by generation) followed by the other inputs (in input
 * order). A drop mask names leaves in that numbering.
 *
 * <p>Per row R, with the compaction's own mask D over its inputs:
 * <ul>
 *   <li>D is {@link ChangedRows#PARTIAL}: so is R;
 *   <li>an earlier output whose cells of R the compaction all dropped: all of that generation's
 *       leaves leave R's reads (what they hold of R the output held, and it is gone);
 *   <li>an earlier output the compaction kept R's cells of: R's mask in that generation carries
 *       over (PARTIAL stays PARTIAL: only that output, now gone, could answer exactly);
 *   <li>any other input in D: its leaf leaves R's reads.
 * </ul>
 * Then R read from the leaves less its mask holds exactly the new output's cells of R. Unseen
 * ranges carry over whole. A generation of more than {@link ChangedRows#MAX_INPUTS} leaves keeps
 * every changed row as PARTIAL.
 */
public final class GenerationRows {
  private GenerationRows() {}

  /**
   * @param absorbed the changed rows of each earlier generation whose output the compaction took
   * @param absorbedLeaves the number of leaves of each
   * @param step the compaction's changed rows, masks over its inputs
   * @param inputOutputOf for each compaction input, the index in {@code absorbed} of the
   *     generation it is the output of, or -1 for any other input (a new leaf)
   */
  public static ChangedRows absorb(List<ChangedRows> absorbed, int[] absorbedLeaves, ChangedRows step,
      int[] inputOutputOf) {
    if (absorbed.size() != absorbedLeaves.length) {
      throw new IllegalArgumentException("one leaf count per absorbed generation");
    }
    int[] offset = new int[absorbed.size()];
    int leaves = 0;
    for (int j = 0; j < absorbed.size(); j++) {
      offset[j] = leaves;
      leaves += absorbedLeaves[j];
    }
    int[] leafOfInput = new int[inputOutputOf.length];
    for (int i = 0; i < inputOutputOf.length; i++) {
      if (inputOutputOf[i] < -1 || inputOutputOf[i] >= absorbed.size()) {
        throw new IllegalArgumentException("input " + i + " names no absorbed generation: " + inputOutputOf[i]);
      }
      leafOfInput[i] = inputOutputOf[i] >= 0 ? -1 : leaves++;
    }
    boolean masksFit = leaves <= ChangedRows.MAX_INPUTS;

    List<ChangedRows> sources = new ArrayList<>(absorbed);
    sources.add(step);
    int[] cursor = new int[sources.size()];
    ChangedRows.Builder out = ChangedRows.builder();
    long[] prev = new long[absorbed.size()];
    while (true) {
      int least = -1;
      for (int s = 0; s < sources.size(); s++) {
        if (cursor[s] < sources.get(s).rowCount()
            && (least < 0 || sources.get(s).compareRows(cursor[s], sources.get(least), cursor[least]) < 0)) {
          least = s;
        }
      }
      if (least < 0) {
        break;
      }
      ChangedRows at = sources.get(least);
      int atIndex = cursor[least];
      long d = ChangedRows.UNCHANGED;
      for (int s = 0; s < sources.size(); s++) {
        ChangedRows src = sources.get(s);
        boolean here = cursor[s] < src.rowCount() && (s == least || src.compareRows(cursor[s], at, atIndex) == 0);
        long mask = here ? src.mask(cursor[s]) : ChangedRows.UNCHANGED;
        if (s < absorbed.size()) {
          prev[s] = mask;
        } else {
          d = mask;
        }
        if (here && s != least) {
          cursor[s]++;
        }
      }
      if (changed(d, prev, inputOutputOf)) {
        out.addRow(at, atIndex, masksFit ? combine(d, prev, inputOutputOf, leafOfInput, offset, absorbedLeaves)
            : ChangedRows.PARTIAL);
      }
      cursor[least]++;
    }
    for (ChangedRows src : sources) {
      src.unknownRanges().forEach(r -> out.addUnknown(r.lo(), r.hi()));
    }
    return out.build();
  }

  /**
   * Whether the leaves' cells of the row differ from the new output's: the compaction dropped
   * some, or an earlier output it kept the row of already differed from its leaves.
   */
  private static boolean changed(long d, long[] prev, int[] inputOutputOf) {
    if (d != ChangedRows.UNCHANGED) {
      return true;
    }
    for (int j : inputOutputOf) {
      if (j >= 0 && prev[j] != ChangedRows.UNCHANGED) {
        return true;
      }
    }
    return false;
  }

  /** The row's mask in the new numbering, for a changed row of a generation of at most MAX_INPUTS leaves. */
  private static long combine(long d, long[] prev, int[] inputOutputOf, int[] leafOfInput, int[] offset,
      int[] absorbedLeaves) {
    if (d == ChangedRows.PARTIAL) {
      return ChangedRows.PARTIAL;
    }
    long mask = 0;
    for (int i = 0; i < inputOutputOf.length; i++) {
      boolean dropped = i < ChangedRows.MAX_INPUTS && (d & (1L << i)) != 0;
      int j = inputOutputOf[i];
      if (j >= 0) {
        if (dropped) {
          mask |= leafBits(offset[j], absorbedLeaves[j]);
        } else if (prev[j] == ChangedRows.PARTIAL) {
          return ChangedRows.PARTIAL;
        } else {
          mask |= shifted(prev[j], offset[j]);
        }
      } else if (dropped) {
        mask |= leafBits(leafOfInput[i], 1);
      }
    }
    return mask;
  }

  /** Bits {@code [from, from + count)}, clipped to what a mask holds (the caller then marks PARTIAL). */
  private static long leafBits(int from, int count) {
    long mask = 0;
    for (int b = from; b < from + count && b < ChangedRows.MAX_INPUTS; b++) {
      mask |= 1L << b;
    }
    return mask;
  }

  private static long shifted(long mask, int by) {
    return by >= ChangedRows.MAX_INPUTS ? 0 : (mask << by) & ~ChangedRows.PARTIAL;
  }
}
