package dev.cairn.cassandra;

import dev.cairn.compaction.CompactionPlan;
import dev.cairn.model.LsmShape;
import java.util.List;
import java.util.Map;
import org.apache.cassandra.io.sstable.format.SSTableReader;

/**
 * One reading of a strategy instance's live SSTables: Cairn's shape, the reader behind each model
 * id, and the compactions running over them (this instance's plans and anything else that holds
 * an SSTable). Valid only while the instance's lock is held, as the readers may go afterwards.
 */
record SSTableModel(LsmShape shape, Map<Long, SSTableReader> readers, List<CompactionPlan> running) {

  /** Whether a running compaction holds the SSTable. */
  boolean isHeld(long id) {
    for (CompactionPlan p : running) {
      if (p.fileIds().contains(id)) {
        return true;
      }
    }
    return false;
  }
}
