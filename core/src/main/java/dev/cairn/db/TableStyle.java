package dev.cairn.db;

import dev.cairn.table.TableOptions;

/** LevelDB's leveled compaction: every plan rewrites whole tables ({@link CompactionJob}). */
final class TableStyle implements StyleRuntime {
  private final Engine engine;

  TableStyle(Engine engine) {
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
  public boolean buffersMerges() {
    return false;
  }

  @Override
  public long obsoleteFileBatchBytes() {
    return engine.options().obsoleteFileBatchBytes();
  }
}
