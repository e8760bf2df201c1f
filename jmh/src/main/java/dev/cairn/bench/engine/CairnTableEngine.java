package dev.cairn.bench.engine;

import dev.cairn.Cairn;
import dev.cairn.CairnIterator;
import dev.cairn.Options;
import dev.cairn.Stats;
import dev.cairn.compaction.dlc.DlcConfig;
import dev.cairn.fs.IoPurpose;
import dev.cairn.fs.IoStats;
import dev.cairn.fs.LocalFileSystem;
import java.nio.file.Path;
import java.util.List;

/**
 * Cairn with table (LevelDB-style leveled) compaction, through its public API only. Device and
 * compaction writes come from the filesystem layer's {@link IoStats}, which counts every byte
 * the engine writes by purpose; direct reads use {@link LocalFileSystem}'s O_DIRECT mode.
 */
public final class CairnTableEngine implements BenchEngine {
  /** Eq. 3's share of gets in periodic's mix (70% gets; its scans run through iterators). */
  static final double PERIODIC_GET_FRACTION = 0.7;

  private final boolean dlc;
  private Cairn db;
  private IoStats io;

  public CairnTableEngine() {
    this(false);
  }

  /** @param dlc schedule compactions with Delayed L0 Compaction ({@code cairn-table+dlc}) */
  public CairnTableEngine(boolean dlc) {
    this.dlc = dlc;
  }

  /** The compaction style; the block and buffer engines will differ only here. */
  Options.CompactionStyle compactionStyle() {
    return Options.CompactionStyle.TABLE;
  }

  @Override
  public void open(Path dir, EngineSettings s) {
    Options options = Options.builder()
        .createIfMissing(true)
        .errorIfExists(true)
        .memtableBytes(s.memtableBytes())
        .blockBytes(s.blockBytes())
        .bloomBitsPerKey(s.bloomBitsPerKey())
        .blockCacheBytes(s.blockCacheBytes())
        .baseLevelBytes(s.baseLevelBytes())
        .levelSizeRatio(s.levelSizeRatio())
        .targetFileBytes(s.targetFileBytes())
        .compactionStyle(compactionStyle())
        .fileSystem(new LocalFileSystem(s.directReads()))
        .compactionScheduler(dlc ? Options.CompactionScheduler.DLC : Options.CompactionScheduler.IMMEDIATE)
        .dlc(dlcConfig(s))
        .build();
    io = options.fileSystem().ioStats();
    db = Cairn.open(dir, options);
  }

  @Override
  public void put(byte[] key, byte[] value) {
    db.put(key, value);
  }

  @Override
  public byte[] get(byte[] key) {
    return db.get(key);
  }

  @Override
  public int scan(byte[] from, int limit) {
    int n = 0;
    try (CairnIterator it = db.iterator()) {
      for (it.seek(from); it.isValid() && n < limit; it.next()) {
        it.key();
        it.value();
        n++;
      }
    }
    return n;
  }

  @Override
  public void flush() {
    db.flush();
  }

  /**
   * DLC as the runner sets it. With periodic's offered rates known, the paper's advice applies
   * ("the other parameters in DLC are set according to the workload", section 4.1): the load is
   * estimated by Eq. 3 from gets, each costing one block, and the limits sit between what the
   * high and the low phase offer — high at 60% of a high phase's estimate, low at twice a low
   * phase's (capped below high). Eq. 6 is not used here because how many gets miss the block
   * cache, and so what a phase's bandwidth is in its terms, depends on the engine and the run.
   * Without offered rates (other workloads) DLC keeps its device-derived defaults.
   */
  static DlcConfig dlcConfig(EngineSettings s) {
    DlcConfig defaults = DlcConfig.defaults();
    if (s.offeredHighOps() <= 0) {
      return defaults;
    }
    double perOp = PERIODIC_GET_FRACTION * s.blockBytes();
    long high = Math.max(2, Math.round(0.6 * s.offeredHighOps() * perOp));
    long low = Math.max(1, Math.min(high - 1, Math.round(2 * s.offeredLowOps() * perOp)));
    return defaults.toBuilder()
        .estimator(DlcConfig.Estimator.WEIGHTED_OPS)
        .getCostBytes(s.blockBytes())
        .scanCostBytes(0)
        .ioHighLimitBytesPerSecond(high)
        .ioLowLimitBytesPerSecond(low)
        .build();
  }

  @Override
  public int l0Files() {
    return db.stats().levels().get(0).files();
  }

  @Override
  public String loadClass() {
    Stats.Dlc d = db.stats().dlc();
    return d.enabled() ? d.load().name() : "";
  }

  @Override
  public EngineMetrics metrics() {
    Stats stats = db.stats();
    return new EngineMetrics(
        blockCacheDataHits(stats),
        blockCacheDataMisses(stats),
        io.totalBytesWritten(),
        io.bytesWritten(IoPurpose.COMPACTION),
        stallMicros(stats));
  }

  /** Data-block lookups served by the block cache (index and filter blocks are pinned, not cached). */
  static long blockCacheDataHits(Stats stats) {
    return stats.cache().hits();
  }

  /** Data-block lookups that missed the block cache. */
  static long blockCacheDataMisses(Stats stats) {
    return stats.cache().misses();
  }

  /** Microseconds writes were slowed down or stopped. */
  static long stallMicros(Stats stats) {
    return stats.stallMicros();
  }

  @Override
  public List<String> unhonouredSettings() {
    return List.of();
  }

  @Override
  public void close() {
    if (db != null) {
      db.close();
      db = null;
    }
  }
}
