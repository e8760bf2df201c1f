package dev.cairn.cassandra;

import dev.cairn.cassandra.warm.OutputWarmer;
import dev.cairn.cassandra.warm.WarmFigures;
import dev.cairn.compaction.dlc.LoadClass;
import dev.cairn.compaction.dlc.LoadEstimate;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.apache.cassandra.config.DatabaseDescriptor;
import org.apache.cassandra.db.ColumnFamilyStore;
import org.apache.cassandra.db.compaction.CompactionManager;
import org.apache.cassandra.db.compaction.UnifiedCompactionStrategy;
import org.apache.cassandra.db.compaction.unified.UnifiedCompactionTask;
import org.apache.cassandra.exceptions.ConfigurationException;
import org.apache.cassandra.io.sstable.format.SSTableReader;
import org.apache.cassandra.utils.Overlaps;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Cairn's delay of the lowest level's compactions under load on Cassandra's Unified Compaction
 * Strategy: {@code ALTER TABLE ks.t WITH compaction = {'class':
 * 'dev.cairn.cassandra.CairnUnifiedCompactionStrategy', 'scaling_parameters': 'T4', ...}}.
 *
 * <p>UCS keeps every decision of its own (levels by density, shards, buckets, its options). Before
 * UCS picks, this class predicts the level it would compact, as UCS chooses it: the level whose
 * SSTables overlap most at some key (the lower on a tie), if that overlap reaches the level's
 * threshold. When that is level 0 and the table's load is high, the pick waits ({@link
 * LowestLevelDelay}) until the load drops or a bound is reached ({@code max_l0_sstables} level-0
 * SSTables overlapping at one key, {@code max_delay_seconds}); a ticker samples the load ({@link
 * TableLoad}, as on LCS) and asks Cassandra again when the delay may end. The prediction only
 * gates: UCS makes the pick. While level 0 waits, the table's other levels wait with it (UCS
 * would pick level 0 again).
 * docs/decisions/0025 has the design and what Cassandra 5.0.9 allows.
 *
 * <p>Cassandra makes one instance per repaired / unrepaired / pending-repair set and disk; each
 * keeps its own delay and load model. Thread-safety: UCS's own methods lock {@code this}, and so
 * do the decision and the ticker here.
 */
public class CairnUnifiedCompactionStrategy extends UnifiedCompactionStrategy implements StrategySnapshot.Source {
  private static final Logger logger = LoggerFactory.getLogger(CairnUnifiedCompactionStrategy.class);

  /** Cairn's options that mean nothing on UCS (bursty part runs, the cold-first choice, LCS's trigger). */
  static final List<String> LCS_ONLY_OPTIONS = List.of(CairnOptions.DRY_RUN, CairnOptions.SPARE_HOT,
      CairnOptions.L0_COMPACTION_TRIGGER, CairnOptions.BURSTY_PART_SSTABLES, CairnOptions.HOT_FACTOR,
      CairnOptions.MAX_HOT_LEVEL_SCORE, CairnOptions.MAX_HOT_POSTPONE_SECONDS);

  private final CairnOptions cairnOptions;
  private final TableLoad load;
  private final LowestLevelDelay delay;
  private final StrategyTicker ticker;
  private final OutputWarmer warmer;
  private final DecisionFailures decisionFailures;

  // Guarded by this.
  private LoadClass lastLoad = LoadClass.LOW;
  private String lastDecision = "none yet";
  private long compactionsStarted;
  private volatile StrategySnapshot snapshot;

  public CairnUnifiedCompactionStrategy(ColumnFamilyStore cfs, Map<String, String> options) {
    super(cfs, options);
    this.cairnOptions = parseOrDefaults(options);
    this.load = new TableLoad(cfs, cairnOptions.dlcConfig());
    this.delay = new LowestLevelDelay(cairnOptions.maxL0SSTables(),
        TimeUnit.SECONDS.toNanos(cairnOptions.maxDelaySeconds()));
    this.decisionFailures = new DecisionFailures(cfs, "UCS");
    this.ticker = new StrategyTicker(cfs, this, () -> getSSTables().isEmpty(), this, cairnOptions.loadIntervalMillis(), this::tick);
    this.warmer = new OutputWarmer(cfs, cairnOptions.warmOutput(),
        cairnOptions.warmBudgetMb() * (1L << 20), () -> load.current().load() == LoadClass.HIGH);
    this.snapshot = new StrategySnapshot("LOW", 0, 0, 0, 0, 0, 0, 0, 0, 0, lastDecision, false);
  }

  /**
   * Cassandra calls this (by reflection) on CREATE and ALTER: Cairn's options checked here (and
   * those that mean nothing on UCS refused by name), the rest handed to UCS's check, which
   * returns what nobody understood; Cassandra refuses those by name.
   */
  public static Map<String, String> validateOptions(Map<String, String> options) throws ConfigurationException {
    for (String key : LCS_ONLY_OPTIONS) {
      if (options.containsKey(key)) {
        throw new ConfigurationException("CairnUnifiedCompactionStrategy: " + key
            + " applies to CairnCompactionStrategy (on LCS) only");
      }
    }
    try {
      CairnOptions.parse(options);
    } catch (IllegalArgumentException e) {
      throw new ConfigurationException("CairnUnifiedCompactionStrategy: " + e.getMessage());
    }
    return UnifiedCompactionStrategy.validateOptions(CairnOptions.withoutOwnOptions(options));
  }

  @Override
  public void startup() {
    super.startup();
    ticker.start();
  }

  @Override
  public void shutdown() {
    ticker.stop();
    super.shutdown();
  }

  @Override
  public synchronized UnifiedCompactionTask getNextBackgroundTask(long gcBefore) {
    boolean highLoad = load.current().load() == LoadClass.HIGH;
    DuePick due;
    LowestLevelDelay.Verdict verdict;
    try {
      // The prediction forms UCS's levels once more than UCS does: only a possible delay needs it.
      due = highLoad && cairnOptions.delayL0() ? duePick() : null;
      verdict = delay.decide(due != null && due.level() == 0,
          due == null ? 0 : due.overlap(), highLoad, cairnOptions.delayL0(), System.nanoTime());
    } catch (RuntimeException | AssertionError e) { // Cassandra runs with assertions on
      // The delay only holds UCS back: a fault in deciding it must never stop the table compacting.
      lastDecision = decisionFailures.record(e);
      refreshSnapshot();
      return super.getNextBackgroundTask(gcBefore);
    }
    if (verdict == LowestLevelDelay.Verdict.DELAY) {
      lastDecision = "DELAY: high load, level 0 holds " + due.level0SSTables() + " SSTables overlapping "
          + due.overlap() + " deep";
      // nodetool compactionstats shows the held-back compaction as pending.
      estimatedRemainingTasks = Math.max(estimatedRemainingTasks, 1);
      refreshSnapshot();
      return null;
    }
    UnifiedCompactionTask task = super.getNextBackgroundTask(gcBefore);
    if (task != null) {
      compactionsStarted++;
    }
    String why = due == null ? (highLoad ? "delay_l0 off" : "low load")
        : due.level() < 0 ? "nothing due" : "level " + due.level() + " overlapping " + due.overlap() + " deep";
    lastDecision = (verdict == LowestLevelDelay.Verdict.RELEASE_AT_BOUND ? "RELEASE_AT_BOUND" : "UCS") + ": " + why
        + (task == null ? ", no task" : "");
    refreshSnapshot();
    return task;
  }

  @Override
  public StrategySnapshot snapshot() {
    return snapshot;
  }

  @Override
  public WarmFigures warming() {
    return warmer.figures();
  }

  @Override
  public void replaceSSTables(Collection<SSTableReader> removed, Collection<SSTableReader> added) {
    super.replaceSSTables(removed, added);
    warmer.afterReplacement(removed, added);
  }

  /** No output opened early where warming can happen: an early reader's close drops its file's chunks, warmed ones too. */
  @Override
  public boolean supportsEarlyOpen() {
    return warmer.allowsEarlyOpen();
  }

  /** The level UCS would compact now (-1: none), how deep its SSTables overlap, and level 0's size. */
  record DuePick(int level, int overlap, int level0SSTables) {}

  /**
   * Requires: this locked. UCS's choice of level, rebuilt from its public parts: the level whose
   * SSTables overlap most at some key, the lower on a tie, provided that reaches its threshold.
   */
  private DuePick duePick() {
    int best = -1;
    int bestOverlap = -1;
    int level0 = 0;
    for (Level level : getLevels(getSSTables(), UnifiedCompactionStrategy::isSuitableForCompaction)) {
      List<SSTableReader> sstables = new ArrayList<>(level.getSSTables());
      if (level.getIndex() == 0) {
        level0 = sstables.size();
      }
      int overlap = maxOverlap(sstables);
      if (overlap > bestOverlap) {
        bestOverlap = overlap;
        best = level.getIndex();
      }
    }
    if (best < 0 || bestOverlap < getController().getThreshold(best)) {
      return new DuePick(-1, Math.max(0, bestOverlap), level0);
    }
    return new DuePick(best, bestOverlap, level0);
  }

  private static int maxOverlap(List<SSTableReader> sstables) {
    int most = 0;
    for (Set<SSTableReader> set : Overlaps.constructOverlapSets(sstables,
        (a, b) -> a.getFirst().compareTo(b.getLast()) > 0, SSTableReader.firstKeyComparator,
        SSTableReader.lastKeyComparator)) {
      most = Math.max(most, set.size());
    }
    return most;
  }

  // ---- the load --------------------------------------------------------------------------

  /** One load interval: the load model, and a nudge when a held-back compaction may run. */
  void tick() {
    warmer.sampleReads();
    boolean ask;
    boolean catchUp;
    synchronized (this) {
      if (!isActive) {
        return;
      }
      LoadEstimate estimate = load.tick();
      catchUp = lastLoad == LoadClass.HIGH && estimate.load() == LoadClass.LOW;
      if (estimate.load() != lastLoad && !getSSTables().isEmpty()) {
        logger.info("{}.{}: load {} (client reads {} MB/s){}", cfs.getKeyspaceName(), cfs.getTableName(),
            estimate.load(), String.format(java.util.Locale.ROOT, "%.1f", estimate.clientBytesPerSecond() / 1e6),
            estimate.load() == LoadClass.HIGH ? ": delaying level-0 compactions" : "");
      }
      lastLoad = estimate.load();
      long now = System.nanoTime();
      ask = delay.delaying() && (estimate.load() == LoadClass.LOW || delay.overTime(now));
      refreshSnapshot();
    }
    if (!ask) {
      return;
    }
    int asks = catchUp ? Math.max(1, DatabaseDescriptor.getConcurrentCompactors()) : 1;
    for (int i = 0; i < asks; i++) {
      CompactionManager.instance.submitBackground(cfs);
    }
  }

  /** Requires: this locked. */
  private void refreshSnapshot() {
    LoadEstimate e = load.current();
    long now = System.nanoTime();
    snapshot = new StrategySnapshot(e.load().name(), e.clientBytesPerSecond(), delay.delayed(), 0,
        delay.releasesAtBound(), 0, delay.currentDelayNanos(now) / 1_000_000, 0, getEstimatedRemainingTasks(),
        compactionsStarted, lastDecision, false);
  }

  /** The options, or the defaults should a table carry values this version refuses (they were checked on ALTER). */
  private CairnOptions parseOrDefaults(Map<String, String> raw) {
    try {
      return CairnOptions.parse(raw == null ? Map.of() : raw);
    } catch (IllegalArgumentException e) {
      logger.error("{}.{}: {}; running with Cairn's defaults until the table is altered", cfs.getKeyspaceName(),
          cfs.getTableName(), e.getMessage());
      return CairnOptions.defaultOptions();
    }
  }
}
