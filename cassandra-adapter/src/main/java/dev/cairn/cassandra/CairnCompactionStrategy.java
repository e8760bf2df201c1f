package dev.cairn.cassandra;

import dev.cairn.cassandra.hot.ColdFirstChooser;
import dev.cairn.cassandra.warm.OutputWarmer;
import dev.cairn.cassandra.warm.WarmFigures;
import dev.cairn.compaction.CompactionKind;
import dev.cairn.compaction.CompactionPicker;
import dev.cairn.compaction.CompactionPlan;
import dev.cairn.compaction.RunningCompactions;
import dev.cairn.compaction.dlc.DlcScheduler;
import dev.cairn.compaction.dlc.LoadClass;
import dev.cairn.compaction.dlc.LoadEstimate;
import dev.cairn.compaction.dlc.SharedCacheMisses;
import dev.cairn.compaction.leveled.LeveledBacklog;
import dev.cairn.compaction.leveled.LeveledCompactionPicker;
import dev.cairn.compaction.leveled.LeveledConfig;
import dev.cairn.model.FileDescriptor;
import dev.cairn.model.LsmShape;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.cassandra.config.DatabaseDescriptor;
import org.apache.cassandra.db.ColumnFamilyStore;
import org.apache.cassandra.db.compaction.AbstractCompactionTask;
import org.apache.cassandra.db.compaction.CompactionManager;
import org.apache.cassandra.db.compaction.LeveledCompactionStrategy;
import org.apache.cassandra.db.compaction.OperationType;
import org.apache.cassandra.db.lifecycle.LifecycleTransaction;
import org.apache.cassandra.dht.Murmur3Partitioner;
import org.apache.cassandra.exceptions.ConfigurationException;
import org.apache.cassandra.io.sstable.format.SSTableReader;
import org.apache.cassandra.metrics.RestorableMeter;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Cairn's compaction decisions as a Cassandra 5.0 compaction strategy:
 * {@code ALTER TABLE ks.t WITH compaction = {'class': 'dev.cairn.cassandra.CairnCompactionStrategy'}}.
 *
 * <p>It is LCS with Cairn choosing which compaction runs and when. LCS keeps the levels (its
 * manifest, scanners, anti-compaction grouping, major and user-defined compactions, the
 * {@code nodetool tablestats} level counts); this class models the live SSTables as Cairn's
 * {@link LsmShape} ({@link ShapeTranslator}) and plans with the engine's leveled picker, DLC's
 * scheduler and load model, and the cold-first chooser, all from {@code cairn-compaction}.
 * Plans run as Cassandra's own tasks, under its compaction throughput limiter:
 * {@link LeveledCompactionTask} for merges (into L0 for DLC's bursty part runs),
 * {@link SingleSSTableLCSTask} for a level change without rewrite.
 *
 * <p>Every {@code load_interval_ms} a ticker samples the load (the table's reads and its share
 * of the node's chunk-cache misses, {@link SharedCacheMisses}) and every SSTable's read meter
 * ({@link ReadRates}), and asks Cassandra for a compaction when work is owed, so delayed work
 * runs as soon as the load drops (several at once: the catch-up). docs/adapters/cassandra.md
 * gives the whole design.
 *
 * <p>Cassandra makes one instance per repaired / unrepaired / pending-repair set and disk; each
 * keeps its own model, scheduler and load model. Thread-safety: Cassandra calls in from its
 * compaction threads and the ticker runs on its optional-tasks executor; every piece of model
 * state is guarded by {@code this}.
 */
public class CairnCompactionStrategy extends LeveledCompactionStrategy implements StrategySnapshot.Source {
  private static final Logger logger = LoggerFactory.getLogger(CairnCompactionStrategy.class);

  /** LCS's level count ({@code LeveledGenerations.MAX_LEVEL_COUNT}); the model mirrors it. */
  static final int LEVELS = 9;

  private final CairnOptions options;
  private final OutputWarmer warmer;
  private final boolean supported;
  private final LeveledConfig leveled;
  private final CompactionPicker picker;
  private final DlcScheduler dlc;
  private final ColdFirstChooser coldFirst;
  private final TableLoad load;
  private final StrategyTicker ticker;
  private final DecisionFailures decisionFailures;

  // Guarded by this.
  private final ReadRates readRates = new ReadRates();
  private final LiveSSTables sstables;
  private LoadClass lastLoad = LoadClass.LOW;
  private String lastDecision = "none yet";
  private String lastLogged = "";
  private long compactionsStarted;
  private volatile StrategySnapshot snapshot;

  public CairnCompactionStrategy(ColumnFamilyStore cfs, Map<String, String> options) {
    super(cfs, options);
    this.options = parseOrDryRun(options);
    // The table's own partitioner: a legacy secondary index's table takes its base table's
    // compaction but keys by LocalPartitioner, whose tokens the model cannot read.
    this.supported = cfs.getPartitioner() instanceof Murmur3Partitioner;
    if (!supported) {
      logger.warn("{}.{}: CairnCompactionStrategy needs Murmur3Partitioner, this table keys by {};"
          + " running LCS's decisions instead", cfs.getKeyspaceName(), cfs.getTableName(),
          cfs.getPartitioner().getClass().getName());
    }
    long sstableBytes = getMaxSSTableBytes();
    // Levels must grow (validateOptions refuses fanout_size 1): a table stored with it before that
    // check still opens, its levels ten times larger each, so that the node still starts.
    int fanout = getLevelFanoutSize() < 2 ? 10 : getLevelFanoutSize();
    if (fanout != getLevelFanoutSize()) {
      logger.warn("{}.{}: fanout_size {} leaves levels no larger than the one above; Cairn's model uses 10",
          cfs.getKeyspaceName(), cfs.getTableName(), getLevelFanoutSize());
    }
    this.leveled = LeveledConfig.of(LEVELS, this.options.l0CompactionTrigger(),
        Math.multiplyExact(fanout, sstableBytes), fanout, sstableBytes);
    this.picker = new LeveledCompactionPicker(leveled);
    this.load = new TableLoad(cfs, this.options.dlcConfig());
    this.dlc = new DlcScheduler(load.config(), picker, System::nanoTime);
    this.coldFirst = new ColdFirstChooser(picker, this.options.hotSparingConfig(), System::nanoTime);
    this.sstables = new LiveSSTables(LEVELS, leveled.outputLimits());
    this.decisionFailures = new DecisionFailures(cfs, "LCS");
    this.ticker = new StrategyTicker(cfs, this, () -> getSSTables().isEmpty(), this, this.options.loadIntervalMillis(), this::tick);
    // A dry run changes nothing of LCS's, so it warms nothing either.
    this.warmer = new OutputWarmer(cfs, this.options.warmOutput() && !this.options.dryRun(), this.options.warmBudgetMb() * (1L << 20),
        () -> load.current().load() == LoadClass.HIGH);
    this.snapshot = new StrategySnapshot("LOW", 0, 0, 0, 0, 0, 0, 0, 0, 0, lastDecision, this.options.dryRun());
  }

  /**
   * Cassandra calls this (by reflection) when a table is created or altered with this class:
   * checks the strategy's own options and hands the rest to LCS's check, which returns what
   * nobody understood, and Cassandra then refuses those by name.
   */
  public static Map<String, String> validateOptions(Map<String, String> options)
      throws ConfigurationException {
    try {
      CairnOptions.parse(options);
    } catch (IllegalArgumentException e) {
      throw new ConfigurationException("CairnCompactionStrategy: " + e.getMessage());
    }
    if (!(DatabaseDescriptor.getPartitioner() instanceof Murmur3Partitioner)) {
      throw new ConfigurationException("CairnCompactionStrategy needs Murmur3Partitioner; this node runs "
          + DatabaseDescriptor.getPartitioner().getClass().getName());
    }
    Map<String, String> unknown = LeveledCompactionStrategy.validateOptions(CairnOptions.withoutOwnOptions(options));
    String fanout = options.get("fanout_size");
    if (fanout != null && Integer.parseInt(fanout) < 2) { // LCS has checked that it is a number >= 1
      throw new ConfigurationException("CairnCompactionStrategy needs fanout_size of at least 2 (each level larger"
          + " than the one above), but was " + fanout);
    }
    return unknown;
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
  public AbstractCompactionTask getNextBackgroundTask(long gcBefore) {
    if (!supported) {
      return super.getNextBackgroundTask(gcBefore);
    }
    // Cairn's choice only refines LCS's, whose manifest tracks the same SSTables: a fault in it
    // must never stop the table compacting.
    if (options.dryRun()) {
      try {
        noteWhatCairnWouldDo();
      } catch (RuntimeException | AssertionError e) { // Cassandra runs with assertions on
        decisionFailed(e);
      }
      return super.getNextBackgroundTask(gcBefore);
    }
    try {
      return cairnTask(gcBefore);
    } catch (RuntimeException | AssertionError e) {
      decisionFailed(e);
      return super.getNextBackgroundTask(gcBefore);
    }
  }

  private synchronized void decisionFailed(Throwable e) {
    lastDecision = decisionFailures.record(e);
    snapshot = snapshot.withLastDecision(lastDecision); // the model, which a refresh reads, may be what failed
  }

  /** A dry run's call: Cairn decides and logs, LCS acts. */
  private synchronized void noteWhatCairnWouldDo() {
    SSTableModel model = model();
    Optional<CompactionPlan> would = decide(model);
    if (!model.readers().isEmpty()) { // the empty repaired set has nothing to say
      note("dry run: Cairn would " + would.map(p -> "run " + describe(p)).orElse("wait: " + lastDecision));
    }
  }

  private AbstractCompactionTask cairnTask(long gcBefore) {
    synchronized (this) {
      SSTableModel model = model();
      Optional<CompactionPlan> plan = decide(model);
      if (plan.isEmpty()) {
        return tombstoneCompaction(model, gcBefore);
      }
      return handOut(model, plan.get(), gcBefore);
    }
  }

  @Override
  public int getEstimatedRemainingTasks() {
    if (!supported || options.dryRun()) {
      return super.getEstimatedRemainingTasks();
    }
    try {
      synchronized (this) {
        return LeveledBacklog.estimatedTasks(model().shape(), leveled);
      }
    } catch (RuntimeException e) {
      logger.debug("{}.{}: Cairn's backlog estimate failed; LCS's stands", cfs.getKeyspaceName(), cfs.getTableName(), e);
      return super.getEstimatedRemainingTasks();
    }
  }

  @Override
  public void replaceSSTables(Collection<SSTableReader> removed, Collection<SSTableReader> added) {
    super.replaceSSTables(removed, added);
    synchronized (this) {
      sstables.replaced(removed, added);
    }
    warmer.afterReplacement(removed, added);
  }

  /** No output opened early where warming can happen: an early reader's close drops its file's chunks, warmed ones too. */
  @Override
  public boolean supportsEarlyOpen() {
    return warmer.allowsEarlyOpen();
  }

  @Override
  public void removeSSTable(SSTableReader sstable) {
    super.removeSSTable(sstable);
    synchronized (this) {
      sstables.forget(List.of(sstable));
    }
  }

  @Override
  public StrategySnapshot snapshot() {
    return snapshot;
  }

  @Override
  public WarmFigures warming() {
    return warmer.figures();
  }

  CairnOptions options() {
    return options;
  }

  /** The live SSTables now, as Cairn's model. */
  private SSTableModel model() {
    return sstables.read(getSSTables(), cfs.getTracker().getCompacting());
  }

  // ---- decisions --------------------------------------------------------------------------

  /** What to start now, if anything: DLC for L0, cold-first below it under high load. */
  private Optional<CompactionPlan> decide(SSTableModel model) {
    LoadClass loadClass = load.current().load();
    Optional<CompactionPlan> plan;
    if (options.delayL0()) {
      DlcScheduler.Decision d = dlc.next(loadClass, model.shape(), model.running(), sstables.burstyOutputs());
      logger.debug("{}: {} L0 {} bursty {} running {}: {}", cfs.getTableName(), loadClass,
          ids(model.shape().files(0)), sstables.burstyOutputs(), model.running().size(), d.reason());
      plan = d.plan();
      if (loadClass == LoadClass.HIGH && options.spareHot() && d.action() == DlcScheduler.Action.LOWER_LEVEL) {
        plan = chooseCold(model);
      } else {
        lastDecision = d.action() + ": " + d.reason();
      }
    } else {
      plan = picker.pick(model.shape(), RunningCompactions.of(model.running()));
      if (loadClass == LoadClass.HIGH && options.spareHot() && plan.isPresent() && plan.get().inputLevel() > 0) {
        plan = chooseCold(model);
      } else {
        lastDecision = plan.map(p -> "PICKER: " + p.reason()).orElse("NONE: nothing due");
      }
    }
    refreshSnapshot(model.shape());
    return plan;
  }

  private Optional<CompactionPlan> chooseCold(SSTableModel model) {
    ColdFirstChooser.Choice c = coldFirst.choose(model.shape(), RunningCompactions.of(model.running()),
        readRates.heat());
    lastDecision = c.outcome() + ": " + c.reason();
    return c.plan();
  }

  private AbstractCompactionTask handOut(SSTableModel model, CompactionPlan plan, long gcBefore) {
    List<SSTableReader> inputs = new ArrayList<>();
    for (long id : plan.fileIds()) {
      inputs.add(model.readers().get(id));
    }
    LifecycleTransaction txn = cfs.getTracker().tryModify(inputs, OperationType.COMPACTION);
    if (txn == null) {
      // Another operation took one of them since the model was read: ask again later.
      logger.debug("{}: could not mark {} for compaction", cfs.getTableName(), plan.fileIds());
      return null;
    }
    AbstractCompactionTask task = PlanTasks.forPlan(cfs, txn, plan, gcBefore, getMaxSSTableBytes());
    sstables.handedOut(plan, inputs);
    compactionsStarted++;
    note("runs " + describe(plan));
    return task;
  }

  /**
   * With nothing due and the load low, one SSTable whose droppable tombstones make a rewrite
   * worth it (Cassandra's {@code tombstone_threshold}), as LCS does.
   */
  private AbstractCompactionTask tombstoneCompaction(SSTableModel model, long gcBefore) {
    if (load.current().load() == LoadClass.HIGH) {
      return null;
    }
    for (int level = LEVELS - 1; level >= 0; level--) {
      for (FileDescriptor f : model.shape().files(level)) {
        SSTableReader r = model.readers().get(f.id());
        if (model.isHeld(f.id()) || !worthDroppingTombstones(r, gcBefore)) {
          continue;
        }
        LifecycleTransaction txn = cfs.getTracker().tryModify(r, OperationType.COMPACTION);
        if (txn == null) {
          continue;
        }
        CompactionPlan plan = new CompactionPlan(CompactionKind.TABLE_MERGE, level, level,
            List.of(f), List.of(), List.of(), null, false, leveled.outputLimits(),
            "droppable tombstones");
        AbstractCompactionTask task = PlanTasks.tombstones(cfs, txn, r.getSSTableLevel(), gcBefore, getMaxSSTableBytes());
        sstables.handedOut(plan, List.of(r));
        compactionsStarted++;
        note("runs a tombstone compaction of L" + level + " " + r.descriptor.id);
        return task;
      }
    }
    return null;
  }

  private static List<Long> ids(List<FileDescriptor> files) {
    return files.stream().map(FileDescriptor::id).toList();
  }

  private String describe(CompactionPlan p) {
    return p.kind() + " L" + p.inputLevel() + "->L" + p.outputLevel() + " of "
        + p.inputs().size() + "+" + p.targets().size() + " sstables (" + p.reason() + ")";
  }

  private void note(String what) {
    String line = cfs.getKeyspaceName() + "." + cfs.getTableName() + ": " + what;
    if (options.dryRun()) {
      // Logged when it changes, so a dry run's log reads as a list of decisions.
      if (!line.equals(lastLogged)) {
        logger.info(line);
        lastLogged = line;
      }
    } else {
      logger.debug(line);
    }
  }

  // ---- the load --------------------------------------------------------------------------

  /** One load interval: the load model, the read rates, and a nudge if work is owed. */
  void tick() {
    warmer.sampleReads();
    boolean catchUp;
    boolean owed;
    synchronized (this) {
      if (!isActive) {
        return;
      }
      LoadEstimate estimate = load.tick();
      SSTableModel model = model();
      Map<Long, Long> counts = new HashMap<>();
      model.readers().forEach((id, r) -> {
        RestorableMeter meter = r.getReadMeter();
        counts.put(id, meter == null ? 0L : meter.count());
      });
      readRates.observe(counts, System.nanoTime());
      catchUp = lastLoad == LoadClass.HIGH && estimate.load() == LoadClass.LOW;
      if (estimate.load() != lastLoad && !model.readers().isEmpty()) {
        logger.info("{}.{}: load {} (client reads {} MB/s){}", cfs.getKeyspaceName(),
            cfs.getTableName(), estimate.load(),
            String.format(java.util.Locale.ROOT, "%.1f", estimate.clientBytesPerSecond() / 1e6),
            estimate.load() == LoadClass.HIGH ? ": delaying L0 compactions, sparing hot SSTables" : "");
      }
      lastLoad = estimate.load();
      refreshSnapshot(model.shape());
      owed = snapshot.estimatedRemainingTasks() > 0;
    }
    if (options.dryRun() || !supported || !owed) {
      return;
    }
    // Ask Cassandra to look for work; after a high-load spell, with every compactor it has.
    int asks = catchUp ? Math.max(1, DatabaseDescriptor.getConcurrentCompactors()) : 1;
    for (int i = 0; i < asks; i++) {
      CompactionManager.instance.submitBackground(cfs);
    }
  }

  private void refreshSnapshot(LsmShape shape) {
    LoadEstimate e = load.current();
    DlcScheduler.Counters d = dlc.counters();
    ColdFirstChooser.Counters c = coldFirst.counters();
    snapshot = new StrategySnapshot(e.load().name(), e.clientBytesPerSecond(), d.delayedL0Compactions(),
        d.partRuns() + d.fullRuns(), d.releasesAtBound(), c.hotPlansSpared(),
        dlc.currentDelayNanos() / 1_000_000, coldFirst.longestPostponementNanos() / 1_000_000,
        LeveledBacklog.estimatedTasks(shape, leveled), compactionsStarted, lastDecision,
        options.dryRun());
  }

  /**
   * The options, or — should a table somehow carry values this version refuses (they were
   * checked when the table was altered) — the defaults in dry-run mode, so that the table still
   * opens and compacts as LCS.
   */
  private CairnOptions parseOrDryRun(Map<String, String> raw) {
    try {
      return CairnOptions.parse(raw == null ? Map.of() : raw);
    } catch (IllegalArgumentException e) {
      logger.error("{}.{}: {}; running LCS's decisions (dry run) until the table is altered",
          cfs.getKeyspaceName(), cfs.getTableName(), e.getMessage());
      Map<String, String> dry = new HashMap<>();
      dry.put(CairnOptions.DRY_RUN, "true");
      return CairnOptions.parse(dry);
    }
  }
}
