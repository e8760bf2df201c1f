package dev.cairn.db.buffer;

import dev.cairn.Options;
import dev.cairn.Stats;
import dev.cairn.compaction.CompactionPlan;
import dev.cairn.compaction.buffer.BufferBloom;
import dev.cairn.compaction.buffer.BufferConfig;
import dev.cairn.db.base.Engine;
import dev.cairn.db.compact.TableStyle;
import dev.cairn.db.read.BufferScans;
import dev.cairn.db.read.PointReads;
import dev.cairn.table.TableOptions;
import dev.cairn.version.Version;
import dev.cairn.version.VersionEdit;

/**
 * Leveled compaction with LSbM's compaction buffer (docs/compaction.md, "Compaction buffer"):
 * plans run as table compaction, and its {@link BufferRuntime} appends each merge's inputs to the
 * output level's buffer at install and trims the buffer on its own thread. Tables get the Bloom
 * bits the buffer's extra filter probes call for.
 */
public final class BufferStyle extends TableStyle {
  private final BufferRuntime runtime;

  /**
   * @param reads the read path's per-level counters, which the buffer's lookups count into and
   *     its miss-cost estimate reads
   * @param scans the level files iterators may read from buffer files, which installs fill
   */
  public BufferStyle(Engine engine, BufferConfig config, PointReads reads, BufferScans scans) {
    super(engine);
    this.runtime = new BufferRuntime(engine, config, true, reads, scans);
  }

  @Override
  public TableOptions tableOptions() {
    Options o = engine.options();
    return new TableOptions(o.blockBytes(), o.blockRestartInterval(),
        BufferBloom.bitsPerKey(o.bloomBitsPerKey(), o.levelSizeRatio()), 0, o.compression());
  }

  @Override
  public void start() {
    runtime.start();
  }

  @Override
  public void stop() {
    runtime.stop();
  }

  @Override
  public void beforeInstall(CompactionPlan plan, VersionEdit edit, boolean outputDiffers) {
    runtime.beforeInstall(plan, edit, outputDiffers);
  }

  @Override
  public Stats.Buffer bufferStats(Version v) {
    return runtime.stats(v);
  }

  /** The buffer itself (tests drive its trim and clock). */
  public BufferRuntime runtime() {
    return runtime;
  }
}
