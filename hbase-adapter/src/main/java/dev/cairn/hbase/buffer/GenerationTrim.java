package dev.cairn.hbase.buffer;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * The trim for a buffer kept in whole compaction generations (the HBase store engine:
 * docs/adapters/hbase.md, "The compaction buffer"): a generation is one live output file and
 * the earlier files (its buffered inputs, or "leaves") that answer reads in its place for rows
 * no compaction changed. HBase swaps whole files in a read, so where Cairn's own trim judges runs
 * of blocks ({@link TrimUnits}) this judges a generation whole, by the same signals: LSbM keeps
 * buffered data while it is cached and read, and lets it go as it cools or as the compacted data
 * warms.
 *
 * <p>A pass retires, in this order of reasons:
 * <ol>
 *   <li>{@link Reason#COOLED}: no read chose the leaves during the last interval (with no reads,
 *       the buffer empties);
 *   <li>{@link Reason#OUTPUT_WARM}: the output has at least as many bytes in the block cache as
 *       the leaves, so reads lose nothing by moving to it;
 *   <li>{@link Reason#OUTGROWN}: fewer than {@code minServedShare} of the generation's reads in
 *       the interval could use the leaves (the changed rows took the reads: they go to the
 *       output, which warms only if it serves them all);
 *   <li>{@link Reason#OVER_BUDGET}: while the leaves of the generations left hold more than
 *       {@code maxExtraFraction} of the store's live bytes, the generation with the smallest
 *       cached share of its leaves.
 * </ol>
 * A generation younger than one interval is judged only by the budget and the output's warmth: its
 * read counts cover part of an interval.
 */
public final class GenerationTrim {
  private GenerationTrim() {}

  /** Why a generation was retired. */
  public enum Reason { COOLED, OUTPUT_WARM, OUTGROWN, DILUTED, OVER_BUDGET }

  /**
   * One generation as a pass sees it.
   *
   * @param id the engine's name for it
   * @param leafBytes the leaves' bytes on disk (the buffer's extra space)
   * @param leafCachedBytes the leaves' bytes in the block cache
   * @param outputBytes the output's bytes on disk
   * @param outputCachedBytes the output's bytes in the block cache
   * @param leafReads reads in the last interval that used the leaves
   * @param outputReads reads in the last interval that had to use the output (a changed row)
   * @param ageMillis time since the generation began
   */
  public record Generation(long id, long leafBytes, long leafCachedBytes, long outputBytes, long outputCachedBytes,
      long leafReads, long outputReads, long ageMillis) {
    public Generation {
      if (leafBytes < 0 || leafCachedBytes < 0 || outputBytes < 0 || outputCachedBytes < 0 || leafReads < 0
          || outputReads < 0 || ageMillis < 0) {
        throw new IllegalArgumentException("negative generation figure: " + this);
      }
    }

    double cachedShare() {
      return leafBytes == 0 ? 1 : (double) leafCachedBytes / leafBytes;
    }
  }

  /** A generation to retire and why. */
  public record Retirement(long id, Reason reason) {}

  /**
   * @param intervalMillis the time between passes (what "the last interval" is)
   * @param minServedShare the least share of a generation's reads the leaves must serve
   * @param maxExtraFraction the most the leaves may hold, as a fraction of the live bytes
   * @param maxDilution the most a generation's leaves may hold beyond its output, as a multiple
   *     of the block cache
   */
  public record Config(long intervalMillis, double minServedShare, double maxExtraFraction, double maxDilution) {
    public Config {
      if (intervalMillis < 1) {
        throw new IllegalArgumentException("trim interval must be >= 1 ms: " + intervalMillis);
      }
      if (!(minServedShare >= 0 && minServedShare <= 1)) {
        throw new IllegalArgumentException("minServedShare out of range [0, 1]: " + minServedShare);
      }
      if (!(maxExtraFraction >= 0 && maxExtraFraction <= 100)) {
        throw new IllegalArgumentException("maxExtraFraction out of range [0, 100]: " + maxExtraFraction);
      }
      if (!(maxDilution >= 0 && maxDilution <= 1000)) {
        throw new IllegalArgumentException("maxDilution out of range [0, 1000]: " + maxDilution);
      }
    }
  }

  /** The generations to retire now, in the order found, beside a block cache of {@code cacheBytes}. */
  public static List<Retirement> plan(List<Generation> generations, long liveBytes, long cacheBytes, Config config) {
    if (liveBytes < 0 || cacheBytes < 0) {
      throw new IllegalArgumentException("negative live or cache bytes: " + liveBytes + ", " + cacheBytes);
    }
    List<Retirement> out = new ArrayList<>();
    List<Generation> kept = new ArrayList<>();
    for (Generation g : generations) {
      Reason reason = judge(g, cacheBytes, config);
      if (reason != null) {
        out.add(new Retirement(g.id(), reason));
      } else {
        kept.add(g);
      }
    }
    long extra = kept.stream().mapToLong(Generation::leafBytes).sum();
    kept.sort(Comparator.comparingDouble(Generation::cachedShare).thenComparingLong(Generation::id));
    for (Generation g : kept) {
      if (withinBudget(extra, liveBytes, config)) {
        break;
      }
      out.add(new Retirement(g.id(), Reason.OVER_BUDGET));
      extra -= g.leafBytes();
    }
    return out;
  }

  /** Whether leaves of {@code extraBytes} fit the budget beside {@code liveBytes} of live files. */
  public static boolean withinBudget(long extraBytes, long liveBytes, Config config) {
    return extraBytes <= config.maxExtraFraction() * liveBytes;
  }

  private static Reason judge(Generation g, long cacheBytes, Config config) {
    boolean fullInterval = g.ageMillis() >= config.intervalMillis();
    if (fullInterval && g.leafReads() == 0) {
      return Reason.COOLED;
    }
    if (g.outputCachedBytes() > 0 && g.outputCachedBytes() >= g.leafCachedBytes()) {
      return Reason.OUTPUT_WARM;
    }
    long reads = g.leafReads() + g.outputReads();
    if (fullInterval && reads > 0 && g.leafReads() < config.minServedShare() * reads) {
      return Reason.OUTGROWN;
    }
    if (cacheBytes > 0 && g.leafBytes() - g.outputBytes() > config.maxDilution() * cacheBytes) {
      return Reason.DILUTED;
    }
    return null;
  }
}
