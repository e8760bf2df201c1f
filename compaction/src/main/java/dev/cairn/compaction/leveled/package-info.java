/**
 * Leveled compaction as LevelDB does it ({@code db/version_set.cc}: {@code VersionSet::Finalize},
 * {@code PickCompaction}, {@code SetupOtherInputs}, {@code CompactRange};
 * {@code Compaction::IsTrivialMove}). Design note:
 *
 * <ol>
 *   <li><b>Score.</b> L0 scores its file count over {@code l0CompactionTrigger} — L0 files
 *       overlap, so every file costs every read a probe, whatever its size. Level {@code n >= 1}
 *       scores its bytes over {@code baseLevelBytes × levelSizeRatio^(n-1)}. The last level is
 *       not scored. The highest score at or above 1 is compacted first (ties: shallower level).
 *   <li><b>Seed.</b> The first file of the level, in key order, whose largest key is beyond the
 *       level's compaction pointer; past the last file, wrap to the first. Compactions thus sweep
 *       the key space round-robin, so no range is starved and each level's write amplification
 *       is spread evenly. With {@link CompactionPriority#MIN_OVERLAP} (RocksDB's {@code
 *       kMinOverlappingRatio}) below L0, the file that overlaps the fewest bytes of the next
 *       level per byte of its own is tried first instead (ties in that round-robin order).
 *   <li><b>L0 closure.</b> For L0, every file overlapping the seed's range joins, and the range
 *       grows until no other L0 file overlaps it: an older overlapping file must never be left
 *       above a newer one that moved down.
 *   <li><b>Targets.</b> All files of {@code level + 1} overlapping the inputs' range.
 *   <li><b>Expand.</b> If taking every file of the level within the inputs-plus-targets range
 *       adds inputs but no targets, and inputs plus targets stay under {@code maxExpandedBytes}
 *       (25 × target file size), take them: same target bytes rewritten for more progress.
 *   <li><b>Grandparents.</b> Files of {@code level + 2} overlapping the whole range; the executor
 *       cuts output files so that none overlaps more than {@code maxGrandparentOverlapBytes}
 *       (10 × target) of them, and, once half full, at their boundaries ({@code OutputCuts}).
 *   <li><b>Trivial move.</b> One input, no target, grandparent overlap within the limit: move the
 *       file down without rewriting it.
 *   <li><b>Pointer.</b> The level's compaction pointer becomes the inputs' largest key.
 *   <li><b>Bottommost.</b> Computed here, not in core: no file below the
 *       output level overlaps the compaction's range.
 * </ol>
 *
 * <p>Departures from LevelDB, each to allow compactions to run in parallel: a plan must be
 * {@linkplain dev.cairn.compaction.RunningCompactions#allows allowed} by the running compactions
 * (no shared file; no write into a range another plan reads or writes, RocksDB's {@code
 * RangeOverlapWithCompaction} plus a read-range rule); a level whose seed's plan is refused tries
 * its next file round-robin, then the next due level; an expansion that would be refused is not
 * taken; no L0 plan while any L0 file is busy.
 * Seek-triggered compaction ({@code allowed_seeks}) is not implemented.
 */
package dev.cairn.compaction.leveled;
