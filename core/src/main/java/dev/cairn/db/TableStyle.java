package dev.cairn.db;

import dev.cairn.Options;
import dev.cairn.table.TableOptions;

/** LevelDB's leveled compaction: every plan rewrites whole tables ({@link CompactionJob}). */
final class TableStyle implements StyleRuntime {
  private final Engine engine;

  TableStyle(Engine engine) {
    this.engine = engine;
  }

  @Override
  public String name() {
    return "TABLE";
  }

  @Override
  public CompactionExecution execution(Compactions.Claimed claimed, CompactionPacer pacer) {
    return new CompactionJob(engine, tableOptions(), claimed.plan(), claimed.shape(), pacer);
  }

  @Override
  public TableOptions tableOptions() {
    return plainTableOptions(engine.options());
  }

  static TableOptions plainTableOptions(Options o) {
    return new TableOptions(o.blockBytes(), o.blockRestartInterval(), o.bloomBitsPerKey());
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
