package dev.cairn.compaction.dlsm;

import dev.cairn.compaction.leveled.LeveledConfig;
import java.util.Objects;

/**
 * Where dLSM's two-phase levels sit among the engine's levels, and how large each may grow.
 *
 * <p>dLSM (section IV-A) splits each of its levels above the last into an <i>insertion part</i>,
 * into which the level above merges, and a <i>deletion part</i>, which is moved out in key order
 * into the level below; when the deletion part is empty the insertion part becomes the deletion
 * part and a new, empty insertion part begins (a <i>round</i>). Each part is a sorted run of
 * non-overlapping files, so each is laid out as one engine level: two-phase level {@code j} (1 to
 * {@link #pairs()}) is the insertion level {@code 2j - 1} above the deletion level {@code 2j}.
 * Everything newer than a key's version in a deletion part is in its insertion part or above, so
 * reads, scans, recovery and the manifest need nothing new: the engine's levels stay sorted runs,
 * newest on top. Below the last pair the tree is leveled: level {@code 2·pairs + 1} and deeper,
 * the deepest level holding the settled data.
 *
 * <p>Sizes follow dLSM's level sizes: pair {@code j} (its two parts together) may hold {@code
 * base × ratio^(j-1)}; leveled level {@code l} below the pairs {@code base × ratio^(l - pairs - 1)},
 * as if each pair were one level.
 *
 * @param leveled the leveled knobs (levels, L0 trigger, base size, ratio, file sizes)
 * @param pairs how many levels below L0 are two-phase; at least 1, and the pairs must leave at
 *     least one leveled level below them ({@code 2·pairs + 1 <= numLevels - 1})
 */
public record TwoPhaseLayout(LeveledConfig leveled, int pairs) {

  /** dLSM's evaluation: three levels on disk, the two upper ones two-phase. */
  public static final int DEFAULT_PAIRS = 2;

  public TwoPhaseLayout {
    Objects.requireNonNull(leveled, "leveled");
    if (pairs < 1 || 2 * pairs + 1 > leveled.numLevels() - 1) {
      throw new IllegalArgumentException("two-phase pairs must be in [1, " + maxPairs(leveled.numLevels())
          + "] for " + leveled.numLevels() + " levels (each pair takes two levels and one leveled level"
          + " must stay below them): " + pairs);
    }
  }

  /** The most pairs a tree of {@code numLevels} levels can hold. */
  public static int maxPairs(int numLevels) {
    return Math.max(0, (numLevels - 2) / 2);
  }

  public int numLevels() {
    return leveled.numLevels();
  }

  /** The engine level of pair {@code pair}'s insertion part. */
  public int insertionLevel(int pair) {
    checkPair(pair);
    return 2 * pair - 1;
  }

  /** The engine level of pair {@code pair}'s deletion part. */
  public int deletionLevel(int pair) {
    checkPair(pair);
    return 2 * pair;
  }

  /** The pair {@code level} belongs to (1..pairs), or 0 for L0 and the leveled levels. */
  public int pairOf(int level) {
    return level >= 1 && level <= 2 * pairs ? (level + 1) / 2 : 0;
  }

  public boolean isInsertion(int level) {
    return pairOf(level) != 0 && level % 2 == 1;
  }

  public boolean isDeletion(int level) {
    return pairOf(level) != 0 && level % 2 == 0;
  }

  /** The first level below the pairs: leveled from here down. */
  public int firstLeveledLevel() {
    return 2 * pairs + 1;
  }

  /** The size at which pair {@code pair}, its two parts together, is due to move data down. */
  public long maxBytesForPair(int pair) {
    checkPair(pair);
    return leveled.maxBytesForLevel(pair);
  }

  /** The size at which leveled level {@code level} (below the pairs, above the last) is due. */
  public long maxBytesForLeveledLevel(int level) {
    if (level < firstLeveledLevel() || level >= numLevels()) {
      throw new IllegalArgumentException("L" + level + " is not a leveled level below the pairs");
    }
    return leveled.maxBytesForLevel(level - pairs);
  }

  /**
   * The level whose files cut a compaction's outputs written into {@code outputLevel}: where that
   * data is merged next. An insertion part's data becomes the deletion part (a move, no merge)
   * and then merges two levels down; a leveled level's merges one level down.
   */
  public int grandparentLevel(int outputLevel) {
    return isInsertion(outputLevel) ? outputLevel + 2 : outputLevel + 1;
  }

  private void checkPair(int pair) {
    if (pair < 1 || pair > pairs) {
      throw new IllegalArgumentException("no two-phase pair " + pair + " (pairs: 1.." + pairs + ")");
    }
  }
}
