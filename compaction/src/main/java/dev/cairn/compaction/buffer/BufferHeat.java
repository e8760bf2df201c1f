package dev.cairn.compaction.buffer;

import dev.cairn.compaction.model.KeyFilter;
import dev.cairn.compaction.model.TableFile;
import java.util.Map;

/**
 * What the last trim pass saw of each buffer file, for the decisions made between passes (the
 * space bound's evictions, {@link BufferDraft#fitSpace}): the fraction of the file's data blocks
 * in the block cache, and its filter. A file the pass did not look at (appended since, or in a
 * run it does not judge) has no heat: it is still warming and goes last.
 *
 * @param heatByFile per file number, the cached fraction of its data blocks at the last pass
 * @param filterByFile per file number, its filter (files without one are absent)
 */
public record BufferHeat(Map<Long, Double> heatByFile, Map<Long, KeyFilter> filterByFile) {
  /** No pass yet: every file is warming. */
  public static final BufferHeat NONE = new BufferHeat(Map.of(), Map.of());

  public BufferHeat {
    heatByFile = Map.copyOf(heatByFile);
    filterByFile = Map.copyOf(filterByFile);
  }

  /** The file's cached fraction at the last pass, or +infinity when the pass did not see it (warming). */
  public double heat(TableFile f) {
    Double h = heatByFile.get(f.number());
    return h == null ? Double.POSITIVE_INFINITY : h;
  }

  /** The file's filter, or null when it has none or the pass did not see it. */
  public KeyFilter filter(TableFile f) {
    return filterByFile.get(f.number());
  }
}
