package dev.cairn.compaction.buffer;

import dev.cairn.model.KeyFilter;
import dev.cairn.model.TableFile;
import java.util.Collection;
import java.util.HashMap;
import java.util.Map;
import java.util.function.ToDoubleFunction;

/**
 * What the last trim pass saw of each buffer file, for the decisions made between passes (the
 * space bound's evictions, {@link BufferDraft#fitSpace}): the fraction of the file's data blocks
 * in the block cache, and its filter. A file the pass did not look at (appended since, or in a
 * run it does not judge) has no heat: it is still warming and goes last, unless the caller
 * measured it since ({@link #withUnseen}).
 *
 * @param heatByFile per file number, the warm fraction of its data blocks at the last pass
 * @param filterByFile per file number, its filter (files without one are absent)
 */
public record BufferHeat(Map<Long, Double> heatByFile, Map<Long, KeyFilter> filterByFile) {
  /** No pass yet: every file is warming. */
  public static final BufferHeat NONE = new BufferHeat(Map.of(), Map.of());

  public BufferHeat {
    heatByFile = Map.copyOf(heatByFile);
    filterByFile = Map.copyOf(filterByFile);
  }

  /**
   * This heat with each of {@code files} the last pass did not see given {@code heatNow}'s
   * measure (its warm fraction now). A file appended by a merge arrives with the blocks its
   * level's reads cached: that is its heat, and a merge target no read touched arrives cold,
   * so it should not outrank the buffer's hot files as a warming one would.
   */
  public <F extends TableFile> BufferHeat withUnseen(Collection<F> files, ToDoubleFunction<? super F> heatNow) {
    Map<Long, Double> heats = new HashMap<>(heatByFile);
    for (F f : files) {
      heats.putIfAbsent(f.number(), heatNow.applyAsDouble(f));
    }
    return new BufferHeat(heats, filterByFile);
  }

  /** The file's warm fraction at the last pass, or +infinity when the pass did not see it (warming). */
  public double heat(TableFile f) {
    Double h = heatByFile.get(f.number());
    return h == null ? Double.POSITIVE_INFINITY : h;
  }

  /** The file's filter, or null when it has none or the pass did not see it. */
  public KeyFilter filter(TableFile f) {
    return filterByFile.get(f.number());
  }
}
