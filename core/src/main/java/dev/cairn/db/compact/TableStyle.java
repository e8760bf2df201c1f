package dev.cairn.db.compact;

import dev.cairn.db.base.Engine;
import dev.cairn.table.TableOptions;

/**
 * LevelDB's leveled compaction: every plan rewrites whole tables ({@link CompactionJob}). The
 * other styles are leveled table compaction with something added, so they extend this one and
 * override only what they change.
 */
public class TableStyle implements StyleRuntime {
  protected final Engine engine;

  public TableStyle(Engine engine) {
    this.engine = engine;
  }

  @Override
  public CompactionExecution execution(Compactions.Claimed claimed, CompactionPacer pacer) {
    return new CompactionJob(engine, tableOptions(), claimed.plan(), claimed.shape(), pacer);
  }

  @Override
  public TableOptions tableOptions() {
    return TableOptions.from(engine.options());
  }

  @Override
  public long obsoleteFileBatchBytes() {
    return engine.options().obsoleteFileBatchBytes();
  }
}
