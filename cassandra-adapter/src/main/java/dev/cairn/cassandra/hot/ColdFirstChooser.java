package dev.cairn.cassandra.hot;

import dev.cairn.compaction.CompactionPicker;
import dev.cairn.compaction.CompactionPlan;
import dev.cairn.compaction.LevelScore;
import dev.cairn.compaction.RunningCompactions;
import dev.cairn.compaction.dlc.DlcClock;
import dev.cairn.model.FileDescriptor;
import dev.cairn.model.LsmShape;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * Cache-aware input choice for a host whose reads always see every live file (Cassandra): it
 * cannot keep a compaction's inputs as a read buffer, as LSbM does, but it can avoid moving hot
 * data while it is hot. Under high load, among the compactions the leveled picker has due, run
 * the one whose files are coldest; postpone a level whose every due plan would rewrite a hot file,
 * within bounds.
 *
 * <p>The rules, level by level in the picker's order of urgency:
 *
 * <ol>
 *   <li>The level's candidates ({@link CompactionPicker#candidates}) are ranked by heat
 *       per byte read: the read rate of inputs and targets (whose cached blocks the compaction
 *       drops) over the bytes it reads. Ties keep the picker's round-robin order.
 *   <li>If the coldest plan has no hot file ({@link ReadHeat#isHot}), it runs. If it is not the
 *       picker's first choice and that one was hot, a hot plan was spared.
 *   <li>If every plan has a hot file, the level is postponed and the next due level is tried,
 *       unless a bound is reached: the level's score is at least {@code maxLevelScore}, or it has
 *       been postponed for {@code maxPostponeMillis}. Then its coldest plan runs anyway.
 * </ol>
 *
 * A level's postponement starts when it is first postponed and ends when one of its plans runs
 * or it is no longer due. L0 is not this chooser's: its compactions overlap every L0 file and
 * leave no choice, and DLC delays them ({@link dev.cairn.compaction.dlc.DlcScheduler}).
 *
 * <p>Stateful (postponement times, counters) and not thread-safe.
 */
public final class ColdFirstChooser {

  /** What {@link #choose} did. */
  public enum Outcome {
    /** The picker's first choice was not hot: it runs. */
    AS_PICKER,
    /**
     * A colder plan than the picker's hot first choice runs: another plan of the same level, or
     * a plan of a less urgent level while the more urgent ones are postponed.
     */
    COLDER_PLAN,
    /** Every plan of the level was hot, but a bound was reached: the coldest runs. */
    HOT_AT_BOUND,
    /** Every due level's plans were hot and within bounds: nothing runs for now. */
    POSTPONED,
    /** Nothing due below L0 (or nothing allowed alongside the running compactions). */
    NONE
  }

  /** The choice, with why. */
  public record Choice(Outcome outcome, Optional<CompactionPlan> plan, String reason) {}

  /** Totals since the chooser was made. */
  public record Counters(long hotPlansSpared, long postponements, long hotRunsAtBound) {}

  private final CompactionPicker picker;
  private final HotSparingConfig config;
  private final DlcClock clock;
  private final Map<Integer, Long> postponedSinceNanos = new HashMap<>();
  private Set<Long> lastSpared = Set.of();
  private long hotPlansSpared;
  private long postponements;
  private long hotRunsAtBound;

  public ColdFirstChooser(CompactionPicker picker, HotSparingConfig config, DlcClock clock) {
    this.picker = Objects.requireNonNull(picker, "picker");
    this.config = Objects.requireNonNull(config, "config");
    this.clock = Objects.requireNonNull(clock, "clock");
  }

  public Counters counters() {
    return new Counters(hotPlansSpared, postponements, hotRunsAtBound);
  }

  /** The longest time any level has now been postponed; 0 if none is. */
  public long longestPostponementNanos() {
    long now = clock.nanoTime();
    long longest = 0;
    for (long since : postponedSinceNanos.values()) {
      longest = Math.max(longest, now - since);
    }
    return longest;
  }

  /**
   * The compaction below L0 to run now, chosen by heat. {@code shape}'s L0 is ignored.
   *
   * @param heat the files' current read rates
   */
  public Choice choose(LsmShape shape, RunningCompactions running, ReadHeat heat) {
    LsmShape belowL0 = shape.withEmptyLevel(0);
    Map<Integer, List<CompactionPlan>> byLevel = new LinkedHashMap<>();
    for (CompactionPlan plan : picker.candidates(belowL0, running)) {
      byLevel.computeIfAbsent(plan.inputLevel(), l -> new ArrayList<>()).add(plan);
    }
    postponedSinceNanos.keySet().retainAll(byLevel.keySet());
    if (byLevel.isEmpty()) {
      return new Choice(Outcome.NONE, Optional.empty(), "nothing due below L0");
    }
    double density = heat.density(shape);
    Map<Integer, Double> scores = new HashMap<>();
    for (LevelScore s : picker.scores(belowL0)) {
      scores.put(s.level(), s.score());
    }
    long now = clock.nanoTime();
    List<String> postponedLevels = new ArrayList<>();
    for (Map.Entry<Integer, List<CompactionPlan>> e : byLevel.entrySet()) {
      int level = e.getKey();
      List<CompactionPlan> plans = e.getValue();
      CompactionPlan first = plans.get(0);
      CompactionPlan coldest = coldest(plans, heat);
      if (!hasHotFile(coldest, heat, density)) {
        postponedSinceNanos.remove(level);
        boolean firstWasHot = coldest != first && hasHotFile(first, heat, density);
        if (firstWasHot) {
          noteSpared(first);
        }
        if (!firstWasHot && postponedLevels.isEmpty()) {
          return chosen(Outcome.AS_PICKER, coldest);
        }
        String spared = firstWasHot
            ? String.format(Locale.ROOT, "%.1f reads/s spared for %.1f",
                heat.rate(files(first)), heat.rate(files(coldest)))
            : String.join(", ", postponedLevels) + " postponed (hot)";
        return chosen(Outcome.COLDER_PLAN, coldest.withReason(coldest.reason() + "; cold-first: " + spared));
      }
      long since = postponedSinceNanos.computeIfAbsent(level, l -> now);
      double score = scores.getOrDefault(level, 0.0);
      long postponedMillis = (now - since) / 1_000_000;
      if (score >= config.maxLevelScore() || postponedMillis >= config.maxPostponeMillis()) {
        postponedSinceNanos.remove(level);
        hotRunsAtBound++;
        return chosen(Outcome.HOT_AT_BOUND, coldest.withReason(String.format(Locale.ROOT,
            "%s; hot plan at bound (score %.2f of max %.2f, postponed %d of max %d ms)",
            coldest.reason(), score, config.maxLevelScore(), postponedMillis,
            config.maxPostponeMillis())));
      }
      noteSpared(first);
      postponedLevels.add("L" + level);
    }
    postponements++;
    return new Choice(Outcome.POSTPONED, Optional.empty(),
        "hot inputs spared: " + String.join(", ", postponedLevels) + " postponed");
  }

  private static Choice chosen(Outcome outcome, CompactionPlan plan) {
    return new Choice(outcome, Optional.of(plan), plan.reason());
  }

  private static CompactionPlan coldest(List<CompactionPlan> plans, ReadHeat heat) {
    CompactionPlan best = plans.get(0);
    double bestDensity = heatPerByte(best, heat);
    for (CompactionPlan p : plans) {
      double d = heatPerByte(p, heat);
      if (d < bestDensity) {
        best = p;
        bestDensity = d;
      }
    }
    return best;
  }

  private static double heatPerByte(CompactionPlan p, ReadHeat heat) {
    long bytes = Math.max(1, p.readBytes());
    return heat.rate(files(p)) / bytes;
  }

  private boolean hasHotFile(CompactionPlan p, ReadHeat heat, double density) {
    for (FileDescriptor f : files(p)) {
      if (heat.isHot(f, density, config.hotFactor())) {
        return true;
      }
    }
    return false;
  }

  /** Counts a spared hot plan once, however often the same one is passed over. */
  private void noteSpared(CompactionPlan hot) {
    Set<Long> ids = hot.fileIds();
    if (!ids.equals(lastSpared)) {
      hotPlansSpared++;
      lastSpared = ids;
    }
  }

  private static List<FileDescriptor> files(CompactionPlan p) {
    List<FileDescriptor> all = new ArrayList<>(p.inputs());
    all.addAll(p.targets());
    return all;
  }
}
