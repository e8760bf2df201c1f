package dev.cairn.cassandra;

import dev.cairn.compaction.CompactionPlan;
import org.apache.cassandra.db.ColumnFamilyStore;
import org.apache.cassandra.db.compaction.AbstractCompactionTask;
import org.apache.cassandra.db.compaction.LeveledCompactionTask;
import org.apache.cassandra.db.compaction.OperationType;
import org.apache.cassandra.db.compaction.SingleSSTableLCSTask;
import org.apache.cassandra.db.lifecycle.LifecycleTransaction;
import org.apache.cassandra.utils.Throwables;

/**
 * Cassandra's compaction tasks for Cairn's plans, on LCS's task classes. Each takes a transaction
 * that has marked its SSTables compacting; should the task fail to be built (Cassandra checks its
 * inputs in the constructor), the transaction is aborted, else the SSTables would stay marked
 * until the node restarts.
 */
final class PlanTasks {
  private PlanTasks() {}

  /** The task for {@code plan}: a move of one SSTable, a merge within L0, or a merge into the next level. */
  static AbstractCompactionTask forPlan(ColumnFamilyStore cfs, LifecycleTransaction txn, CompactionPlan plan,
      long gcBefore, long maxSSTableBytes) {
    try {
      return switch (plan.kind()) {
        case TRIVIAL_MOVE -> new SingleSSTableLCSTask(cfs, txn, plan.outputLevel());
        // One L0 SSTable: L0 SSTables overlap anyway, and one is what makes the part run pay.
        case L0_TO_L0 -> new LeveledCompactionTask(cfs, txn, 0, gcBefore, Long.MAX_VALUE, false);
        default -> new LeveledCompactionTask(cfs, txn, plan.outputLevel(), gcBefore, maxSSTableBytes, false);
      };
    } catch (Throwable t) {
      Throwables.maybeFail(txn.abort(t)); // rethrows t, an abort's failure added to it
      throw t;
    }
  }

  /** A rewrite of one SSTable at {@code level} for its droppable tombstones, as LCS's. */
  static AbstractCompactionTask tombstones(ColumnFamilyStore cfs, LifecycleTransaction txn, int level,
      long gcBefore, long maxSSTableBytes) {
    try {
      AbstractCompactionTask task = new LeveledCompactionTask(cfs, txn, level, gcBefore, maxSSTableBytes, false);
      task.setCompactionType(OperationType.TOMBSTONE_COMPACTION);
      return task;
    } catch (Throwable t) {
      Throwables.maybeFail(txn.abort(t)); // rethrows t, an abort's failure added to it
      throw t;
    }
  }
}
