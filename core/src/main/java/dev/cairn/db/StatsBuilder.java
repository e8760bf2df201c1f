package dev.cairn.db;

import dev.cairn.Stats;
import dev.cairn.db.base.Engine;
import dev.cairn.db.base.EngineCounters;
import dev.cairn.db.compact.Compactions;
import dev.cairn.db.read.PointReads;
import dev.cairn.fs.IoPurpose;
import dev.cairn.fs.IoStats;
import dev.cairn.table.cache.TableCache;
import dev.cairn.table.cache.TableCacheBudget;
import dev.cairn.version.Version;
import java.util.ArrayList;
import java.util.List;

/** Assembles a {@link Stats} snapshot from the engine's counters, I/O accounting and version. */
final class StatsBuilder {
  private StatsBuilder() {}

  /** Requires: mutex held (reads the current version and memtable sizes). */
  static Stats build(Engine engine, Compactions compactions, PointReads reads, Stats.FlushCaching flushCaching,
      Version v, long memtableBytes, int immutables) {
    assert engine.mutex().isHeldByCurrentThread();
    IoStats io = engine.fs().ioStats();
    double[] scores = compactions.scores();
    List<Stats.LevelStats> levels = new ArrayList<>();
    for (int level = 0; level < v.numLevels(); level++) {
      long written = level == 0 ? io.bytesWritten(IoPurpose.FLUSH) + io.compactionBytesWritten(0)
          : io.compactionBytesWritten(level);
      long dead = v.files(level).stream().mapToLong(f -> f.totalBytes() - f.validBytes()).sum();
      levels.add(new Stats.LevelStats(level, v.fileCount(level), v.levelBytes(level),
          level < scores.length ? scores[level] : 0.0, io.compactionBytesRead(level), written, dead,
          engine.counters().rawDataBytesWritten(level), engine.counters().storedDataBytesWritten(level),
          io.compactionReadCalls(level)));
    }
    long user = engine.counters().userBytesWritten().sum();
    long device = io.totalBytesWritten();
    Stats.Buffer buffer = compactions.style().bufferStats(v);
    long waitingDeletion = engine.counters().obsoleteTableBytes().get();
    // Every table byte on disk: the levels' (dead bytes included), the buffer's own files, and
    // obsolete tables that lazy deletion keeps until its batch fills.
    long tableBytes = levels.stream().mapToLong(Stats.LevelStats::bytes).sum() + buffer.bytes() + waitingDeletion;
    long lastLevelBytes = 0;
    for (Stats.LevelStats l : levels) {
      if (l.bytes() > 0) {
        lastLevelBytes = l.bytes();
      }
    }
    EngineCounters c = engine.counters();
    return new Stats(
        levels,
        new Stats.Writes(user, io.bytesWritten(IoPurpose.WAL), device, user == 0 ? 0.0 : (double) device / user),
        new Stats.Space(lastLevelBytes == 0 ? 1.0 : (double) tableBytes / lastLevelBytes, waitingDeletion),
        engine.blockCache().stats(),
        tableFiles(engine.tableCache()),
        stalls(c),
        new Stats.Memtable(memtableBytes, immutables),
        new Stats.Flush(c.flushes().sum(), io.bytesWritten(IoPurpose.FLUSH), flushCaching),
        new Stats.Compaction(c.compactions().sum(), c.trivialMoves().sum(), c.levelMoves().sum(),
            compactions.scheduler().idleDrains(), c.compactionNanos().sum() / 1000, compactions.running(),
            io.bytesRead(IoPurpose.COMPACTION), io.bytesWritten(IoPurpose.COMPACTION), c.filterRemoved(),
            c.filterChanged(), c.filteredCompactionsDiscarded(), c.mergedOperands(), c.deletedTables(),
            c.deletedBytes()),
        new Stats.Manifest(io.bytesWritten(IoPurpose.MANIFEST), engine.installer().manifestWrites(),
            engine.installer().manifestWriteNanos() / 1000),
        new Stats.Reads(io.bytesRead(IoPurpose.USER_READ), reads.levelReads(v.numLevels()), reads.meanBlockReadMicros()),
        new Stats.Latencies(c.getLatency().snapshot(), c.putLatency().snapshot(), c.scanLatency().snapshot()),
        compactions.scheduler().stats(v.fileCount(0), v.levelBytes(0)),
        compactions.style().blockStats(),
        buffer,
        engine.snapshots().size(),
        engine.versions().lastSequence());
  }

  /** The writers' stalls by cause, from the counters of each. */
  private static Stats.Stalls stalls(EngineCounters c) {
    EngineCounters.StallCause pace = EngineCounters.StallCause.SLOWDOWN;
    EngineCounters.StallCause l0 = EngineCounters.StallCause.L0_STOP;
    EngineCounters.StallCause memtable = EngineCounters.StallCause.MEMTABLE_STOP;
    return new Stats.Stalls(c.stallNanos(pace) / 1000, c.stalls(pace), c.stallNanos(l0) / 1000, c.stalls(l0),
        c.stallNanos(memtable) / 1000, c.stalls(memtable));
  }

  private static Stats.TableFiles tableFiles(TableCache cache) {
    TableCacheBudget budget = cache.budget();
    return new Stats.TableFiles(budget.maxFiles(), cache.openTables(), cache.opens(), budget.maxBytes(),
        cache.cachedPinnedBytes(), budget.isShared(), budget.files(), budget.bytes(), budget.openFileCount(),
        budget.reopenedFiles());
  }
}
