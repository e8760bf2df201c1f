package dev.cairn.compaction.buffer;

import dev.cairn.model.BufferEntry;
import dev.cairn.model.KeyFilter;
import dev.cairn.model.TableFile;
import dev.cairn.model.UserKeyOrder;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.BiPredicate;

/**
 * The trim's unit (docs/compaction.md, "Trim units"): a buffer file is cut into runs of
 * consecutive data blocks of about {@code unitBytes}, and each run stays in the buffer only while
 * at least the threshold fraction of its blocks is cached. LSbM gets the same effect from
 * super-files (the tree compacts 20 MB super-files, the buffer trims their 2 MB files); here the
 * tree keeps compacting whole table files and the buffer judges runs of their blocks.
 *
 * <p>A run's key range comes from the index alone, with no data read: run {@code [a, b)} answers
 * for the user keys in {@code (upper(a-1), upper(b-1)]}, where {@code upper(i)} is the user key of
 * block {@code i}'s separator (the first run is open below, the last above). These ranges
 * partition the key space, so the parts and markers a split leaves cover every key of the file
 * with no gap, which is all correctness needs: a key in a part is answered by the whole file, a
 * key under a marker ends the walk and falls back to the level. A user key whose versions
 * straddle a boundary belongs to the run before it; that run's file part then answers it from
 * whichever block holds the version asked for.
 */
public final class TrimUnits {
  private TrimUnits() {}

  /**
   * Splits {@code entry} into hot parts ({@link BufferEntry.File}, same file, narrower range) and
   * removed markers for its cold runs, in key order, clipped to the entry's range; adjacent runs
   * of the same kind are one piece. Returns a single-element list holding {@code entry} itself
   * when all of it is hot.
   *
   * @param upperUserKeys per data block in key order, its separator's user key
   * @param blockBytes per data block, its size
   * @param cached per data block, whether it is warm in the block cache now ({@link
   *     TrimPlanner.BlockLayout})
   */
  public static <F extends TableFile> List<BufferEntry<F>> split(BufferEntry.File<F> entry,
      byte[][] upperUserKeys, long[] blockBytes, boolean[] cached, long unitBytes, double threshold) {
    return split(entry, upperUserKeys, blockBytes, cached, unitBytes, threshold, (lo, hi) -> false);
  }

  /**
   * {@link #split} that keeps a cold run whose key range {@code keepCold} accepts, as if it were
   * hot: the trim keeps a cold run that lies over cached data of an older buffer run, since its
   * marker would stop the walks that data serves.
   */
  public static <F extends TableFile> List<BufferEntry<F>> split(BufferEntry.File<F> entry,
      byte[][] upperUserKeys, long[] blockBytes, boolean[] cached, long unitBytes, double threshold, BiPredicate<byte[], byte[]> keepCold) {
    return split(entry, upperUserKeys, blockBytes, cached, unitBytes, threshold, keepCold, null);
  }

  /**
   * {@link #split} whose cold runs become filter markers holding {@code coldFilter}, the file's
   * filter ({@link BufferEntry.Removed#filter}); null leaves plain markers.
   */
  public static <F extends TableFile> List<BufferEntry<F>> split(BufferEntry.File<F> entry,
      byte[][] upperUserKeys, long[] blockBytes, boolean[] cached, long unitBytes, double threshold,
      BiPredicate<byte[], byte[]> keepCold, KeyFilter coldFilter) {
    int n = upperUserKeys.length;
    if (blockBytes.length != n || cached.length != n) {
      throw new IllegalArgumentException("block arrays differ in length");
    }
    List<BufferEntry<F>> out = new ArrayList<>();
    byte[] pieceLo = null;
    byte[] pieceHi = null;
    boolean pieceHot = false;
    int start = 0;
    while (start < n) {
      int unitStart = start;
      int end = start;
      long bytes = 0;
      int cachedBlocks = 0;
      while (end < n && (end == start || bytes < unitBytes)) {
        bytes += blockBytes[end];
        cachedBlocks += cached[end] ? 1 : 0;
        end++;
      }
      byte[] lo = start == 0
          ? entry.smallestUserKey()
          : UserKeyOrder.max(entry.smallestUserKey(), successor(upperUserKeys[start - 1]));
      byte[] hi = end == n ? entry.largestUserKey() : UserKeyOrder.min(entry.largestUserKey(), upperUserKeys[end - 1]);
      start = end;
      if (UserKeyOrder.compare(lo, hi) > 0) {
        continue; // the run lies outside the entry's range (or between two versions of one key)
      }
      boolean hot = cachedBlocks >= threshold * (end - unitStart) || keepCold.test(lo, hi);
      if (pieceLo != null && hot == pieceHot) {
        pieceHi = hi;
        continue;
      }
      if (pieceLo != null) {
        out.add(piece(entry, pieceLo, pieceHi, pieceHot, coldFilter));
      }
      pieceLo = lo;
      pieceHi = hi;
      pieceHot = hot;
    }
    if (pieceLo == null) {
      return List.of(entry); // no block (an empty table): nothing to judge
    }
    out.add(piece(entry, pieceLo, pieceHi, pieceHot, coldFilter));
    if (out.size() == 1 && out.get(0) instanceof BufferEntry.File) {
      return List.of(entry);
    }
    return out;
  }

  private static <F extends TableFile> BufferEntry<F> piece(BufferEntry.File<F> entry, byte[] lo, byte[] hi, boolean hot,
      KeyFilter coldFilter) {
    return hot ? new BufferEntry.File<>(entry.meta(), lo, hi) : new BufferEntry.Removed<>(lo, hi, coldFilter);
  }

  /** The smallest user key above {@code key}: bytewise order puts {@code key + 0x00} next. */
  public static byte[] successor(byte[] key) {
    return Arrays.copyOf(key, key.length + 1);
  }

}
