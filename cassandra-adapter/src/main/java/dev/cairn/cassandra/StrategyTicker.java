package dev.cairn.cassandra;

import java.util.List;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.apache.cassandra.concurrent.ScheduledExecutors;
import org.apache.cassandra.db.ColumnFamilyStore;
import org.apache.cassandra.db.compaction.AbstractCompactionStrategy;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What a strategy instance runs beside Cassandra's calls, on LCS or on UCS: its table's JMX bean
 * ({@link CairnCompactionMetrics}) and a tick every load interval on Cassandra's optional-tasks
 * executor. A tick that throws is logged and the next one runs: decisions fall back to the last
 * load, and the ticker outlives a bad sample.
 */
final class StrategyTicker {
  private static final Logger logger = LoggerFactory.getLogger(StrategyTicker.class);

  private final ColumnFamilyStore cfs;
  private final AbstractCompactionStrategy owner;
  private final BooleanSupplier holdsNoSSTables;
  private final StrategySnapshot.Source source;
  private final long intervalMillis;
  private final Runnable tick;

  // Guarded by this.
  private ScheduledFuture<?> future;
  // Touched by ticks only, one at a time on the executor.
  private int unlistedEmptyTicks;
  private long tickFailures;

  /**
   * Ticks for {@code owner}, which is {@code source} too (each strategy is its own bean source)
   * and answers {@code holdsNoSSTables} (its SSTables are for it and its package to see).
   */
  StrategyTicker(ColumnFamilyStore cfs, AbstractCompactionStrategy owner, BooleanSupplier holdsNoSSTables,
      StrategySnapshot.Source source, long intervalMillis, Runnable tick) {
    this.cfs = cfs;
    this.owner = owner;
    this.holdsNoSSTables = holdsNoSSTables;
    this.source = source;
    this.intervalMillis = intervalMillis;
    this.tick = tick;
  }

  /** Registers the instance with its table's bean and starts ticking; a second call changes nothing. */
  void start() {
    CairnCompactionMetrics.register(cfs.getKeyspaceName(), cfs.getTableName(), source);
    synchronized (this) {
      if (future == null) {
        future = ScheduledExecutors.optionalTasks.scheduleWithFixedDelay(this::tickSafely, intervalMillis,
            intervalMillis, TimeUnit.MILLISECONDS);
      }
    }
  }

  /** Stops ticking (a tick in progress finishes) and leaves the table's bean. */
  void stop() {
    synchronized (this) {
      if (future != null) {
        future.cancel(false);
        future = null;
      }
    }
    CairnCompactionMetrics.unregister(cfs.getKeyspaceName(), cfs.getTableName(), source);
  }

  private void tickSafely() {
    try {
      if (dropped()) {
        logger.debug("{}.{}: a dropped strategy instance stops ticking", cfs.getKeyspaceName(), cfs.getTableName());
        stop();
        return;
      }
      tick.run();
    } catch (Throwable t) {
      // A fault that persists would fail every tick: its stack is logged once.
      if (tickFailures++ == 0) {
        logger.warn("{}.{}: load sample failed (logged once; later failures at DEBUG)", cfs.getKeyspaceName(),
            cfs.getTableName(), t);
      } else {
        logger.debug("{}.{}: load sample failed", cfs.getKeyspaceName(), cfs.getTableName(), t);
      }
    }
  }

  /**
   * Whether Cassandra has let the instance go without shutting it down: it does so with a pending
   * repair session's instance once the session's SSTables have moved on (5.0's
   * {@code PendingRepairManager.removeSessionIfEmpty}), which would tick and hold its place in the
   * table's bean for the node's life. Judged on two ticks in a row (a compaction's commit can
   * empty an instance for a moment), each asking only while the instance holds no SSTables, and
   * outside its lock (the manager locks its own state, then calls into the instance). The
   * instances of a transient repair, which the manager does not list, hold SSTables for as long
   * as the manager holds them; a new session's SSTables go to a new instance.
   */
  private boolean dropped() {
    if (!holdsNoSSTables.getAsBoolean() || listed()) {
      unlistedEmptyTicks = 0;
      return false;
    }
    return ++unlistedEmptyTicks >= 2;
  }

  /** Whether the table's strategy manager lists the instance among its repaired, unrepaired or pending sets. */
  private boolean listed() {
    for (List<AbstractCompactionStrategy> holder : cfs.getCompactionStrategyManager().getStrategies()) {
      for (AbstractCompactionStrategy s : holder) {
        if (s == owner) {
          return true;
        }
      }
    }
    return false;
  }
}
