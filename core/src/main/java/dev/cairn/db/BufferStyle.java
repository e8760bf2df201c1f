package dev.cairn.db;

import dev.cairn.Options;
import dev.cairn.compaction.buffer.BufferBloom;
import dev.cairn.table.TableOptions;

/**
 * Leveled compaction with LSbM's compaction buffer (docs/compaction.md, "Compaction buffer"):
 * plans run as table compaction, and {@link BufferRuntime} appends each merge's inputs to the
 * output level's buffer and trims it. Tables get the Bloom bits the buffer's extra filter probes
 * call for.
 */
final class BufferStyle extends TableStyle {
  BufferStyle(Engine engine) {
    super(engine);
  }

  @Override
  public TableOptions tableOptions() {
    Options o = engine.options();
    return new TableOptions(o.blockBytes(), o.blockRestartInterval(),
        BufferBloom.bitsPerKey(o.bloomBitsPerKey(), o.levelSizeRatio()));
  }

  @Override
  public boolean buffersMerges() {
    return true;
  }
}
