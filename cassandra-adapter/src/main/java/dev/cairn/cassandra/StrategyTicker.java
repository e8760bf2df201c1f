package dev.cairn.cassandra;

import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import org.apache.cassandra.concurrent.ScheduledExecutors;
import org.apache.cassandra.db.ColumnFamilyStore;
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
  private final StrategySnapshot.Source source;
  private final long intervalMillis;
  private final Runnable tick;

  // Guarded by this.
  private ScheduledFuture<?> future;

  StrategyTicker(ColumnFamilyStore cfs, StrategySnapshot.Source source, long intervalMillis, Runnable tick) {
    this.cfs = cfs;
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
      tick.run();
    } catch (Throwable t) {
      logger.warn("{}.{}: load sample failed", cfs.getKeyspaceName(), cfs.getTableName(), t);
    }
  }
}
