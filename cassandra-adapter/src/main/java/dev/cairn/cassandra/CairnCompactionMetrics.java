package dev.cairn.cassandra;

import dev.cairn.cassandra.warm.WarmFigures;

import java.lang.management.ManagementFactory;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArraySet;
import java.util.function.ToLongFunction;
import java.util.stream.Collectors;
import javax.management.JMException;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The JMX bean of one table, over all its strategy instances. Registered when the table's first
 * instance starts and unregistered when its last one shuts down (a schema change, a dropped
 * table, a switch back to another strategy).
 */
final class CairnCompactionMetrics implements CairnCompactionMetricsMBean {
  private static final Logger logger = LoggerFactory.getLogger(CairnCompactionMetrics.class);
  private static final Map<String, CairnCompactionMetrics> TABLES = new ConcurrentHashMap<>();

  private final ObjectName name;
  private final Set<StrategySnapshot.Source> instances = new CopyOnWriteArraySet<>();

  private CairnCompactionMetrics(ObjectName name) {
    this.name = name;
  }

  /**
   * {@code dev.cairn.cassandra:type=CairnCompaction,keyspace=<ks>,table=<t>}, the names unquoted
   * as in Cassandra's own table beans ({@code org.apache.cassandra.db:type=Tables,...}): keyspace
   * and table names are word characters only, which an object name takes as they are.
   */
  static ObjectName objectName(String keyspace, String table) {
    try {
      return new ObjectName("dev.cairn.cassandra:type=CairnCompaction,keyspace=" + keyspace + ",table=" + table);
    } catch (JMException e) {
      throw new IllegalStateException(e);
    }
  }

  static void register(String keyspace, String table, StrategySnapshot.Source instance) {
    String key = keyspace + "." + table;
    TABLES.compute(key, (k, bean) -> {
      if (bean == null) {
        bean = new CairnCompactionMetrics(objectName(keyspace, table));
        try {
          MBeanServer server = ManagementFactory.getPlatformMBeanServer();
          if (!server.isRegistered(bean.name)) {
            server.registerMBean(bean, bean.name);
          }
        } catch (JMException e) {
          // Metrics are not worth failing a table for.
          logger.warn("could not register {}", bean.name, e);
        }
      }
      bean.instances.add(instance);
      return bean;
    });
  }

  static void unregister(String keyspace, String table, StrategySnapshot.Source instance) {
    TABLES.computeIfPresent(keyspace + "." + table, (k, bean) -> {
      bean.instances.remove(instance);
      if (!bean.instances.isEmpty()) {
        return bean;
      }
      try {
        ManagementFactory.getPlatformMBeanServer().unregisterMBean(bean.name);
      } catch (JMException e) {
        logger.debug("could not unregister {}", bean.name, e);
      }
      return null;
    });
  }

  private long sum(ToLongFunction<StrategySnapshot> f) {
    return instances.stream().mapToLong(s -> f.applyAsLong(s.snapshot())).sum();
  }

  private long max(ToLongFunction<StrategySnapshot> f) {
    long most = 0;
    for (StrategySnapshot.Source s : instances) {
      most = Math.max(most, f.applyAsLong(s.snapshot()));
    }
    return most;
  }

  @Override
  public String getLoadClass() {
    for (StrategySnapshot.Source s : instances) {
      if (s.snapshot().loadClass().equals("HIGH")) {
        return "HIGH";
      }
    }
    return "LOW";
  }

  @Override
  public double getClientReadBytesPerSecond() {
    double most = 0;
    for (StrategySnapshot.Source s : instances) {
      most = Math.max(most, s.snapshot().clientReadBytesPerSecond());
    }
    return most;
  }

  @Override
  public long getDelayedCompactions() {
    return sum(StrategySnapshot::delayedCompactions);
  }

  @Override
  public long getBurstyRuns() {
    return sum(StrategySnapshot::burstyRuns);
  }

  @Override
  public long getReleasesAtBound() {
    return sum(StrategySnapshot::releasesAtBound);
  }

  @Override
  public long getHotInputsSpared() {
    return sum(StrategySnapshot::hotInputsSpared);
  }

  @Override
  public long getCurrentDelayMillis() {
    return max(StrategySnapshot::currentDelayMillis);
  }

  @Override
  public long getCurrentHotPostponeMillis() {
    return max(StrategySnapshot::currentHotPostponeMillis);
  }

  @Override
  public int getEstimatedRemainingTasks() {
    return (int) Math.min(Integer.MAX_VALUE, sum(s -> s.estimatedRemainingTasks()));
  }

  @Override
  public int getInstances() {
    return instances.size();
  }

  @Override
  public long getCompactionsStarted() {
    return sum(StrategySnapshot::compactionsStarted);
  }

  @Override
  public String getLastDecision() {
    // Instances that decided the same (the empty repaired set, say) are listed once.
    Set<String> decisions = new LinkedHashSet<>();
    for (StrategySnapshot.Source s : instances) {
      decisions.add(s.snapshot().lastDecision());
    }
    return String.join(" | ", decisions);
  }

  @Override
  public boolean isDryRun() {
    for (StrategySnapshot.Source s : instances) {
      return s.snapshot().dryRun();
    }
    return false;
  }

  private long sumWarming(ToLongFunction<WarmFigures> f) {
    return instances.stream().mapToLong(s -> f.applyAsLong(s.warming())).sum();
  }

  @Override
  public long getWarmedCompactions() {
    return sumWarming(WarmFigures::warmedCompactions);
  }

  @Override
  public long getWarmedChunks() {
    return sumWarming(WarmFigures::chunks);
  }

  @Override
  public long getWarmedBytes() {
    return sumWarming(WarmFigures::bytes);
  }

  @Override
  public long getWarmMillis() {
    return sumWarming(WarmFigures::millis);
  }

  @Override
  public long getWarmsSkipped() {
    return sumWarming(WarmFigures::skipped);
  }

  @Override
  public long getWarmLeftOutBytes() {
    return sumWarming(WarmFigures::leftOutBytes);
  }

  @Override
  public long getWarmedOutputReads() {
    return sumWarming(WarmFigures::warmedOutputReads);
  }

  @Override
  public String getLastWarm() {
    // Instances that said the same are listed once, as in getLastDecision.
    return instances.stream().map(s -> s.warming().last()).distinct().collect(Collectors.joining(" | "));
  }
}
