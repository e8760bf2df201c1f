package dev.cairn.db.write;

import dev.cairn.db.base.Engine;
import dev.cairn.db.base.TableOutput;
import dev.cairn.fs.IoTag;
import dev.cairn.iter.InternalIterator;
import dev.cairn.memtable.MemTable;
import dev.cairn.table.TableOptions;
import dev.cairn.version.FileMetaData;
import dev.cairn.version.VersionEdit;
import java.io.IOException;
import java.util.List;

/**
 * Writes a memtable into one new L0 table. Every entry is kept: a flush drops nothing, because
 * older versions of its keys may live in other tables and open snapshots may need them.
 */
public final class FlushJob {
  private FlushJob() {}

  /**
   * Requires: mutex held (released during the write, held again on return). Adds the new table
   * to {@code edit} and returns its number, which stays a pending output until the caller has
   * installed the edit and calls {@link PendingOutputs#release}; returns -1 for an empty
   * memtable. The table is built with {@code tableOptions} (the compaction style's); with {@code
   * cacheBlocks}, each data block goes into the block cache as it is written.
   */
  public static long flush(Engine engine, TableOptions tableOptions, MemTable mem, VersionEdit edit,
      boolean cacheBlocks) throws IOException {
    assert engine.mutex().isHeldByCurrentThread();
    if (mem.isEmpty()) {
      return -1;
    }
    long number = engine.pendingOutputs().allocate();
    engine.mutex().unlock();
    List<FileMetaData> files = null;
    try (InternalIterator it = mem.iterator();
        TableOutput out = new TableOutput(engine.fs(), engine.dir(), tableOptions, IoTag.FLUSH, Long.MAX_VALUE,
            () -> number, TableOutput.CutPolicy.NONE)) {
      if (cacheBlocks) {
        out.warming(engine.blockCache());
      }
      out.rangeTombstones(mem.rangeTombstones());
      for (it.seekToFirst(); it.isValid(); it.next()) {
        out.add(it.key(), it.value());
      }
      files = out.finish();
      engine.counters().dataBlocksWritten(0, out.rawDataBytes(), out.storedDataBytes());
    } finally {
      engine.mutex().lock();
      if (files == null) {
        // Failed: the partial table is no longer an output, so collection may delete it.
        engine.pendingOutputs().release(List.of(number));
      }
    }
    assert files.size() == 1 : "a flush writes exactly one table, wrote " + files.size();
    edit.addFile(0, files.get(0));
    if (!mem.rangeTombstones().isEmpty()) {
      edit.markRangeDeletions(); // the table holds range tombstones; every later one comes from it
    }
    return number;
  }
}
