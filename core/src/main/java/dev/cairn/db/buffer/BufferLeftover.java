package dev.cairn.db.buffer;

import dev.cairn.Stats;
import dev.cairn.compaction.CompactionPlan;
import dev.cairn.compaction.buffer.BufferConfig;
import dev.cairn.db.base.Engine;
import dev.cairn.db.compact.CompactionExecution;
import dev.cairn.db.compact.CompactionPacer;
import dev.cairn.db.compact.Compactions;
import dev.cairn.db.compact.StyleRuntime;
import dev.cairn.db.read.BufferScans;
import dev.cairn.db.read.PointReads;
import dev.cairn.table.TableOptions;
import dev.cairn.version.Version;
import dev.cairn.version.VersionEdit;

/**
 * A style that keeps no compaction buffer, over a database whose earlier {@link BufferStyle} open
 * left one: adds, at every install, the removed markers that keep that buffer correct, so that it
 * drains as the tree compacts (shadowed files are dropped), and reports it in the statistics. The
 * draining {@link BufferRuntime} is made by the first install or statistics call that finds a
 * buffer in the current version; before that this costs one check per install, and a database
 * that never had a buffer never gets one, since only {@link BufferStyle} appends. Everything else
 * is the wrapped style's.
 */
public final class BufferLeftover implements StyleRuntime {
  private final StyleRuntime style;
  private final Engine engine;
  private final PointReads reads;
  private final BufferScans scans;
  /** Made under the engine mutex; read without it only by {@link #stop}. */
  private volatile BufferRuntime drain;

  public BufferLeftover(StyleRuntime style, Engine engine, PointReads reads, BufferScans scans) {
    this.style = style;
    this.engine = engine;
    this.reads = reads;
    this.scans = scans;
  }

  /** Requires: mutex held. The draining buffer, made once {@code v} holds a buffer; else null. */
  private BufferRuntime drainFor(Version v) {
    assert engine.mutex().isHeldByCurrentThread();
    if (drain == null && v.hasBuffer()) {
      drain = new BufferRuntime(engine, BufferConfig.defaults(), false, reads, scans);
    }
    return drain;
  }

  @Override
  public CompactionExecution execution(Compactions.Claimed claimed, CompactionPacer pacer) {
    return style.execution(claimed, pacer);
  }

  @Override
  public TableOptions tableOptions() {
    return style.tableOptions();
  }

  @Override
  public long obsoleteFileBatchBytes() {
    return style.obsoleteFileBatchBytes();
  }

  @Override
  public Stats.Block blockStats() {
    return style.blockStats();
  }

  @Override
  public void start() {
    style.start();
  }

  @Override
  public void stop() {
    style.stop();
    BufferRuntime d = drain;
    if (d != null) {
      d.stop();
    }
  }

  @Override
  public void beforeInstall(CompactionPlan plan, VersionEdit edit, boolean outputDiffers) {
    style.beforeInstall(plan, edit, outputDiffers);
    BufferRuntime d = drainFor(engine.versions().current());
    if (d != null) {
      d.beforeInstall(plan, edit, outputDiffers);
    }
  }

  @Override
  public Stats.Buffer bufferStats(Version v) {
    BufferRuntime d = drainFor(v);
    return d == null ? Stats.Buffer.OFF : d.stats(v);
  }
}
