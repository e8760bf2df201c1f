package dev.cairn.compaction.leveled;

import dev.cairn.compaction.CompactionPicker;
import dev.cairn.compaction.CompactionPlan;
import dev.cairn.compaction.LevelScore;
import dev.cairn.compaction.RunningCompactions;
import dev.cairn.model.FileDescriptor;
import dev.cairn.model.LsmShape;
import dev.cairn.model.UserKeyOrder;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * LevelDB's size-triggered leveled compaction over an {@link LsmShape}; see package-info for the
 * rules and their origins. Stateless and thread-safe: the only memory between picks is the
 * compaction pointers, which live in the shape.
 */
public final class LeveledCompactionPicker implements CompactionPicker {

  private final LeveledConfig config;
  private final CompactionPriority priority;
  private final LeveledPlanBuilder builder;

  /** LevelDB's picker: seeds round-robin from the compaction pointer. */
  public LeveledCompactionPicker(LeveledConfig config) {
    this(config, CompactionPriority.ROUND_ROBIN);
  }

  public LeveledCompactionPicker(LeveledConfig config, CompactionPriority priority) {
    this.config = Objects.requireNonNull(config, "config");
    this.priority = Objects.requireNonNull(priority, "priority");
    this.builder = new LeveledPlanBuilder(config);
  }

  public LeveledConfig config() {
    return config;
  }

  public CompactionPriority priority() {
    return priority;
  }

  /**
   * One score per level that can compact into a deeper one ({@code 0..numLevels-2}); the last
   * level has nowhere to go and is not scored. A level below L0 is scored by its valid bytes:
   * the superseded blocks an appended table holds (block compaction) are garbage, bounded by
   * the level's {@code minValidRatio}, not data to move down, and counting them would push data
   * down early, a merge into the level below for every byte of garbage.
   */
  @Override
  public List<LevelScore> scores(LsmShape shape) {
    checkLevels(shape);
    List<LevelScore> scores = new ArrayList<>(shape.numLevels() - 1);
    int l0Files = shape.level(0).fileCount();
    scores.add(
        new LevelScore(
            0, (double) l0Files / config.l0CompactionTrigger(), l0Files,
            config.l0CompactionTrigger()));
    for (int level = 1; level < shape.numLevels() - 1; level++) {
      long bytes = shape.validBytes(level);
      long limit = config.maxBytesForLevel(level);
      scores.add(new LevelScore(level, (double) bytes / limit, bytes, limit));
    }
    return scores;
  }

  /**
   * The most urgent due compaction that may run alongside {@code running} (see {@link
   * RunningCompactions#allows}). Levels are tried from the highest score down (all with score >=
   * 1); within a level, files are tried round-robin from the first one after the level's
   * compaction pointer, so a busy range makes the picker move on rather than stall.
   *
   * <p>No L0 plan is made while any L0 file is busy: L0 files overlap freely, and two L0
   * compactions at once could carry a newer version of a key below an older one.
   */
  @Override
  public Optional<CompactionPlan> pick(LsmShape shape, RunningCompactions running) {
    List<CompactionPlan> first = plans(shape, running, true, false);
    return first.isEmpty() ? Optional.empty() : Optional.of(first.get(0));
  }

  @Override
  public Optional<CompactionPlan> pickDraining(LsmShape shape, RunningCompactions running) {
    List<CompactionPlan> first = plans(shape, running, true, true);
    return first.isEmpty() ? Optional.empty() : Optional.of(first.get(0));
  }

  /**
   * Every plan the picker could start now alongside {@code running}, in its order of preference:
   * due levels from the most urgent, and within a level one plan per seed, round-robin from the
   * level's compaction pointer (a plan two seeds lead to is listed once). {@link #pick} returns
   * the first. For callers that choose among the due compactions by something the picker does
   * not see, such as how hot each plan's files are (see {@code dev.cairn.cassandra.hot}).
   */
  @Override
  public List<CompactionPlan> candidates(LsmShape shape, RunningCompactions running) {
    return plans(shape, running, false, false);
  }

  /** @param draining every level with a file above the deepest one holding any is due ({@link #pickDraining}) */
  private List<CompactionPlan> plans(LsmShape shape, RunningCompactions running, boolean firstOnly,
      boolean draining) {
    Objects.requireNonNull(running, "running");
    int deepest = shape.deepestLevelWithFiles();
    List<LevelScore> due = new ArrayList<>();
    for (LevelScore score : scores(shape)) {
      boolean drains = draining && score.level() < deepest && !shape.files(score.level()).isEmpty();
      if (score.isDue() || drains) {
        due.add(score);
      }
    }
    due.sort(LevelScore.MOST_URGENT_FIRST);
    List<CompactionPlan> plans = new ArrayList<>();
    Set<Set<Long>> seen = new HashSet<>();
    for (LevelScore score : due) {
      for (CompactionPlan plan : plansInLevel(shape, score, running, firstOnly)) {
        if (seen.add(plan.fileIds())) {
          plans.add(score.isDue() ? plan : plan.withReason("writes stopped, draining: " + plan.reason()));
          if (firstOnly) {
            return plans;
          }
        }
      }
    }
    return plans;
  }

  private List<CompactionPlan> plansInLevel(
      LsmShape shape, LevelScore score, RunningCompactions running, boolean firstOnly) {
    int level = score.level();
    if (level == 0 && running.anyBusy(shape.files(0))) {
      return List.of();
    }
    List<FileDescriptor> seeds = seedOrder(shape, level);
    String reason = score.describe();
    List<CompactionPlan> plans = new ArrayList<>();
    for (FileDescriptor seed : seeds) {
      if (running.isBusy(seed.id())) {
        continue;
      }
      Optional<CompactionPlan> plan =
          builder.build(shape, level, List.of(seed), running, true, reason);
      if (plan.isPresent()) {
        plans.add(plan.get());
        if (firstOnly) {
          break;
        }
      }
    }
    return plans;
  }

  /**
   * The files of {@code level} in the order they are tried as seeds: round-robin from the first
   * after the compaction pointer; with {@link CompactionPriority#MIN_OVERLAP} below L0, stably
   * re-sorted by the valid bytes of {@code level + 1} each overlaps per valid byte of its own
   * (what a table merge rewrites per byte it moves down; garbage is neither).
   */
  private List<FileDescriptor> seedOrder(LsmShape shape, int level) {
    List<FileDescriptor> seeds = RoundRobin.seeds(shape.files(level), shape.compactionPointer(level));
    if (priority == CompactionPriority.MIN_OVERLAP && level >= 1) {
      Map<Long, Double> ratio = new HashMap<>();
      for (FileDescriptor f : seeds) {
        long below = 0;
        for (FileDescriptor t : shape.overlapping(level + 1, f.smallestKey(), f.largestKey())) {
          below += t.validBytes();
        }
        ratio.put(f.id(), (double) below / Math.max(1, f.validBytes()));
      }
      seeds.sort(Comparator.comparingDouble(f -> ratio.get(f.id()))); // stable: ties round-robin
    }
    return seeds;
  }

  /**
   * A step of a manual compaction ({@code compactRange}) of {@code level} into {@code level + 1}
   * over {@code [fromUserKey, toUserKey]} (null = open), LevelDB's {@code CompactRange}. Below
   * L0 one step takes input files only until they reach {@code targetFileBytes}, so a huge range
   * does not become one huge compaction; L0 cannot be cut like that (an older overlapping file
   * must not stay behind), so it goes whole. A manual step is never a trivial move: the caller
   * asked for the data to be rewritten.
   *
   * <p>The caller loops: install the plan, then call again with the same range until the result
   * is empty and {@code shape.overlapping(level, from, to)} is empty too; then go on with the next
   * level. An empty result while files remain means the step conflicts with a running
   * compaction: wait for it and retry.
   */
  @Override
  public Optional<CompactionPlan> planManual(
      LsmShape shape, int level, byte[] fromUserKey, byte[] toUserKey,
      RunningCompactions running) {
    checkLevels(shape);
    Objects.requireNonNull(running, "running");
    if (level < 0 || level >= shape.numLevels() - 1) {
      throw new IllegalArgumentException(
          "manual compaction level must be in [0, " + (shape.numLevels() - 2) + "]: " + level);
    }
    if (fromUserKey != null && toUserKey != null
        && UserKeyOrder.compare(fromUserKey, toUserKey) > 0) {
      throw new IllegalArgumentException("manual compaction range is empty: from > to");
    }
    List<FileDescriptor> inputs =
        level == 0
            ? LeveledPlanBuilder.closedL0Overlap(shape, fromUserKey, toUserKey)
            : shape.overlapping(level, fromUserKey, toUserKey);
    if (inputs.isEmpty()) {
      return Optional.empty();
    }
    if (level > 0) {
      inputs = limitToOneStep(inputs);
    }
    String reason = "manual L" + level + " " + bound(fromUserKey) + ".." + bound(toUserKey);
    return builder.build(shape, level, inputs, running, false, reason);
  }

  /**
   * {@link #planManual(LsmShape, int, byte[], byte[], RunningCompactions)} for a caller that
   * keeps only busy file ids; sound under the condition of {@link
   * RunningCompactions#fromBusyFiles}.
   */
  public Optional<CompactionPlan> planManual(
      LsmShape shape, int level, byte[] fromUserKey, byte[] toUserKey, Set<Long> busy) {
    return planManual(
        shape, level, fromUserKey, toUserKey, RunningCompactions.fromBusyFiles(shape, busy));
  }

  /** The key-ordered prefix of {@code inputs} that first reaches {@code targetFileBytes}. */
  private List<FileDescriptor> limitToOneStep(List<FileDescriptor> inputs) {
    long total = 0;
    for (int i = 0; i < inputs.size(); i++) {
      total += inputs.get(i).sizeBytes();
      if (total >= config.targetFileBytes()) {
        return inputs.subList(0, i + 1);
      }
    }
    return inputs;
  }

  private static String bound(byte[] key) {
    return key == null ? "*" : UserKeyOrder.printable(key);
  }

  private void checkLevels(LsmShape shape) {
    if (shape.numLevels() != config.numLevels()) {
      throw new IllegalArgumentException(
          "shape has " + shape.numLevels() + " levels, config " + config.numLevels());
    }
  }
}
