package dev.cairn.hbase.tiered;

import dev.cairn.compaction.ByteSizes;
import dev.cairn.compaction.dlc.DlcClock;
import dev.cairn.compaction.dlc.LoadClass;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Set;

/**
 * DLC (delayed compaction under high load, bursty part runs, bounds) and cache-aware input choice
 * for a tiered store, such as HBase's default store engine: given the load class and one
 * {@link StoreRequest}, which files to compact now, if any.
 *
 * <ul>
 *   <li><b>Never delayed</b>: an operator's request, a major compaction, off-peak hours, and any
 *       store holding a split daughter's reference files (the region cannot merge, and its
 *       references are never cached). The store's own selection runs.
 *   <li><b>Low load</b>: the store's own selection runs; a delay in force ends.
 *   <li><b>High load</b>: the store's selection is held back ({@link Action#DELAY}) while flushes
 *       go on, with three ways out:
 *       <ul>
 *         <li>a <em>part run</em>: once {@code partTriggerFreshFiles} fresh files sit at the newest
 *             end of the store, they are merged into one, which keeps the file count down and
 *             leaves the older, larger (and cached) files where they are;
 *         <li>the <em>file bound</em>: at {@code blockingFiles - boundMarginFiles} store files the
 *             delay ends, well before the store would block writes;
 *         <li>the <em>time bound</em>: a compaction held back {@code maxDelayMillis} runs.
 *       </ul>
 *       At a bound the policy runs the coldest in-ratio window that brings the store below the
 *       file bound (or, at the time bound, any in-ratio window of {@code minFiles} or more): the
 *       merge that evicts the fewest cached bytes per file it removes ({@link ColdWindows}).
 * </ul>
 *
 * <p>Every selection is a contiguous window of the eligible files, so the store's files stay
 * contiguous by sequence id. Stateful (the delay's start and the counters) and not thread-safe:
 * one instance per store, called under the store's selection lock.
 */
public final class TieredDlcPolicy {

  /** What {@link #decide} chose. */
  public enum Action {
    /** The store's own selection (low load, or a request that is never delayed). */
    AS_STORE,
    /** High load: the store's selection is held back. */
    DELAY,
    /** High load: the fresh files at the newest end merged into one. */
    PART_RUN,
    /** A bound reached under high load: the coldest window that relieves the store. */
    RELEASE_AT_BOUND,
    /** Nothing to compact. */
    NONE
  }

  /** The decision: files to compact (empty for {@link Action#DELAY} and {@link Action#NONE}) and why. */
  public record Decision(Action action, List<StoreFile> selection, String reason) {
    public Decision {
      selection = List.copyOf(selection);
    }
  }

  /** Totals since the policy was made. */
  public record Counters(long delayedCompactions, long partRuns, long releasesAtBound,
      long colderChoices, long sparedCachedBytes) {}

  private final TieredDlcConfig config;
  private final DlcClock clock;
  /** When the compaction now held back was first held; -1 while none is. */
  private long heldSinceNanos = -1;
  /** The eligible files last held back; a delay is counted once per new set of files. */
  private Set<Long> lastHeld = Set.of();
  private long delayedCompactions;
  private long partRuns;
  private long releasesAtBound;
  private long colderChoices;
  private long sparedCachedBytes;

  /** @param clock times the delay for {@code maxDelayMillis}; tests pass a simulated one */
  public TieredDlcPolicy(TieredDlcConfig config, DlcClock clock) {
    this.config = Objects.requireNonNull(config, "config");
    this.clock = Objects.requireNonNull(clock, "clock");
  }

  public TieredDlcConfig config() {
    return config;
  }

  public Counters counters() {
    return new Counters(delayedCompactions, partRuns, releasesAtBound, colderChoices, sparedCachedBytes);
  }

  /** How long the compaction now held back has waited; 0 if none is. */
  public long currentDelayNanos() {
    return heldSinceNanos < 0 ? 0 : Math.max(0, clock.nanoTime() - heldSinceNanos);
  }

  /** Whether a compaction is held back now: the caller asks again once the load falls. */
  public boolean delaying() {
    return heldSinceNanos >= 0;
  }

  /** The files to compact for {@code request} under {@code load}. */
  public Decision decide(LoadClass load, StoreRequest request) {
    Objects.requireNonNull(load, "load");
    String neverDelayed = neverDelayed(request);
    if (neverDelayed != null) {
      Decision d = asStore(request, neverDelayed);
      if (d.action() == Action.AS_STORE) {
        // The store compacts now: a delay in force ends, and the time bound starts afresh at the
        // next compaction held back.
        endDelay();
      }
      return d;
    }
    if (load == LoadClass.LOW) {
      endDelay();
      return asStore(request, "low load");
    }
    int bound = request.blockingFiles() - config.boundMarginFiles();
    if (request.storeFiles() >= bound) {
      return release(request, bound, String.format(Locale.ROOT,
          "high load, file bound: %d store files of %d (blocking %d - margin %d)",
          request.storeFiles(), bound, request.blockingFiles(), config.boundMarginFiles()));
    }
    long heldMillis = currentDelayNanos() / 1_000_000;
    if (config.delayIsBounded() && delaying() && heldMillis >= config.maxDelayMillis()) {
      return release(request, Integer.MAX_VALUE, String.format(Locale.ROOT,
          "high load, time bound: held %d ms of %d", heldMillis, config.maxDelayMillis()));
    }
    List<StoreFile> fresh = newestFresh(request.eligible());
    if (fresh.size() >= config.partTriggerFreshFiles()) {
      partRuns++;
      List<StoreFile> run = fresh.subList(Math.max(0, fresh.size() - config.maxFiles()), fresh.size());
      return new Decision(Action.PART_RUN, run, String.format(Locale.ROOT,
          "high load, part run: %d fresh files, %s", run.size(), ByteSizes.format(ColdWindows.sizeBytes(run))));
    }
    if (request.storeSelection().isEmpty()) {
      return new Decision(Action.NONE, List.of(), "high load: nothing due");
    }
    noteHeld(request.eligible());
    return new Decision(Action.DELAY, List.of(), String.format(Locale.ROOT,
        "high load: compaction of %d files held back (%d store files, bound %d)",
        request.storeSelection().size(), request.storeFiles(), bound));
  }

  /** Why the request is never delayed, or null. */
  private static String neverDelayed(StoreRequest request) {
    switch (request.kind()) {
      case USER:
        return "a user request";
      case MAJOR:
        return "a major compaction";
      case OFF_PEAK:
        return "off-peak hours";
      default:
        break;
    }
    for (StoreFile f : request.eligible()) {
      if (f.reference()) {
        return "reference files (a split daughter)";
      }
    }
    return null;
  }

  private Decision asStore(StoreRequest request, String why) {
    if (request.storeSelection().isEmpty()) {
      return new Decision(Action.NONE, List.of(), why + ": nothing due");
    }
    return new Decision(Action.AS_STORE, request.storeSelection(), why);
  }

  /**
   * The coldest in-ratio window that leaves fewer than {@code bound} store files (as near as
   * {@code maxFiles} allows), else the store's selection, else nothing.
   */
  private Decision release(StoreRequest request, int bound, String why) {
    // Merging k files removes k - 1: below the bound needs k >= storeFiles - bound + 2.
    int needed = bound == Integer.MAX_VALUE ? config.minFiles()
        : Math.max(config.minFiles(), request.storeFiles() - bound + 2);
    int minLength = Math.min(needed, config.maxFiles());
    List<StoreFile> chosen = ColdWindows.coldest(request.eligible(), minLength, config.maxFiles(), config.ratio(),
        request.storeSelection()).orElse(request.storeSelection());
    if (chosen.isEmpty()) {
      return new Decision(Action.NONE, List.of(), why + ": nothing in ratio to merge");
    }
    endDelay();
    releasesAtBound++;
    String choice = "";
    if (!chosen.equals(request.storeSelection())) {
      long spared = ColdWindows.cachedBytes(request.storeSelection()) - ColdWindows.cachedBytes(chosen);
      if (spared > 0) {
        colderChoices++;
        sparedCachedBytes += spared;
        choice = "; cold-first: " + ByteSizes.format(spared) + " cached spared";
      }
    }
    return new Decision(Action.RELEASE_AT_BOUND, chosen, String.format(Locale.ROOT,
        "%s; %d files, %s cached%s", why, chosen.size(), ByteSizes.format(ColdWindows.cachedBytes(chosen)), choice));
  }

  /** The fresh files at the newest end of {@code eligible}, oldest first. */
  private List<StoreFile> newestFresh(List<StoreFile> eligible) {
    List<StoreFile> run = new ArrayList<>();
    for (int i = eligible.size() - 1; i >= 0; i--) {
      StoreFile f = eligible.get(i);
      if (f.reference() || f.excludedFromMinor() || f.sizeBytes() > config.freshMaxBytes()) {
        break;
      }
      run.add(0, f);
    }
    return run;
  }

  private void noteHeld(List<StoreFile> eligible) {
    if (heldSinceNanos < 0) {
      heldSinceNanos = clock.nanoTime();
    }
    Set<Long> ids = new HashSet<>();
    eligible.forEach(f -> ids.add(f.id()));
    if (!ids.equals(lastHeld)) {
      delayedCompactions++;
      lastHeld = Set.copyOf(ids);
    }
  }

  private void endDelay() {
    heldSinceNanos = -1;
    lastHeld = Set.of();
  }
}
