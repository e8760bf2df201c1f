package dev.cairn.compaction.buffer;

import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Which of a level's buffer runs and files the next trim pass may judge: runs no newer than the
 * newest at the previous pass, and within those only files that were in the level's buffer at
 * the previous pass. So a file appended since then gets at least one interval for reads to find
 * it, whatever run it landed in: the run id alone cannot tell, since appends go into the existing
 * newest run, and a file appended just before a pass sits in a run that is no longer newest at
 * the next one; nor can its number, which it kept from its life as a level file.
 *
 * <p>LSbM leaves the newest run (B^0) alone while it fills. Cairn judges it like the others, by
 * file: without freezing (the default) the newest run takes every append until the upper level's
 * merges wrap around the key space, so it holds most of the buffer, and sparing it spared that.
 * On the Latest workloads the level below the hot levels then held a full space budget of former
 * level files that no read had touched for a cache turnover while the block cache still kept a
 * third of them (docs/results/issue17/latest-cycle/newest-run).
 *
 * <p>Soft state, one per level, rebuilt empty at open: the first pass judges nothing.
 *
 * @param newestRunAtLastPass the id of the level's newest run at the previous pass (0 before the
 *     first; kept through passes that found the level's buffer empty)
 * @param filesAtLastPass the numbers of the files in the level's buffer at the previous pass
 */
public record TrimSchedule(long newestRunAtLastPass, Set<Long> filesAtLastPass) {
  /** Before the first pass. */
  public static final TrimSchedule FIRST_PASS = new TrimSchedule(0, Set.of());

  public TrimSchedule {
    filesAtLastPass = Set.copyOf(filesAtLastPass);
  }

  /** The ids of the runs the pass may judge, given the level's run ids newest first. */
  public Set<Long> judgeableRuns(List<Long> runIdsNewestFirst) {
    Set<Long> out = new HashSet<>();
    for (long id : runIdsNewestFirst) {
      if (id <= newestRunAtLastPass) {
        out.add(id);
      }
    }
    return out;
  }

  /** Whether a file in a judgeable run is judged: it was in the buffer at the previous pass. */
  public boolean judgesFile(long fileNumber) {
    return filesAtLastPass.contains(fileNumber);
  }

  /** The schedule after a pass that found runs {@code runIdsNewestFirst} holding {@code files}. */
  public TrimSchedule afterPass(List<Long> runIdsNewestFirst, Set<Long> files) {
    long newest = runIdsNewestFirst.isEmpty() ? newestRunAtLastPass : runIdsNewestFirst.get(0);
    return new TrimSchedule(newest, files);
  }
}
