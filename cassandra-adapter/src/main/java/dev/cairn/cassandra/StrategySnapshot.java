package dev.cairn.cassandra;

import dev.cairn.cassandra.warm.WarmFigures;

/**
 * The figures one strategy instance shows its table's JMX bean ({@link CairnCompactionMetrics}),
 * refreshed by every tick and decision.
 */
record StrategySnapshot(
    String loadClass,
    double clientReadBytesPerSecond,
    long delayedCompactions,
    long burstyRuns,
    long releasesAtBound,
    long hotInputsSpared,
    long currentDelayMillis,
    long currentHotPostponeMillis,
    int estimatedRemainingTasks,
    long compactionsStarted,
    String lastDecision,
    boolean dryRun) {

  /** This snapshot with {@code decision} as the last decision. */
  StrategySnapshot withLastDecision(String decision) {
    return new StrategySnapshot(loadClass, clientReadBytesPerSecond, delayedCompactions, burstyRuns, releasesAtBound,
        hotInputsSpared, currentDelayMillis, currentHotPostponeMillis, estimatedRemainingTasks, compactionsStarted,
        decision, dryRun);
  }

  /** A strategy instance the bean reads, on LCS or on UCS. */
  interface Source {
    StrategySnapshot snapshot();

    /** What the instance's output warming has done. */
    WarmFigures warming();
  }
}
