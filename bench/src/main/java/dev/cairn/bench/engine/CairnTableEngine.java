package dev.cairn.bench.engine;

import dev.cairn.Cairn;
import dev.cairn.CairnIterator;
import dev.cairn.Options;
import dev.cairn.Stats;
import dev.cairn.compaction.dlc.DlcConfig;
import dev.cairn.fs.FileSystem;
import dev.cairn.fs.IoPurpose;
import dev.cairn.fs.IoStats;
import dev.cairn.fs.LocalFileSystem;
import dev.cairn.fs.SeekDelayFileSystem;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.function.UnaryOperator;

/**
 * Cairn with table (LevelDB-style leveled) compaction, through its public API only. Device and
 * compaction writes come from the filesystem layer's {@link IoStats}, which counts every byte
 * the engine writes by purpose; direct reads use {@link LocalFileSystem}'s O_DIRECT mode, and
 * {@code --seek-delay-ms} puts the tables on a {@link SeekDelayFileSystem} (a simulated slow disk).
 *
 * <p>Every Cairn engine of the runner is this class: a new compaction style is the constructor's
 * {@code style} argument (its style-specific settings keep their defaults); the per-level writes,
 * the seek counter and the buffer metric ({@link #bufferBytes()}) then come for free.
 */
public final class CairnTableEngine implements BenchEngine {
  /**
   * Block compaction's lazy-deletion threshold. BlockDB deletes obsolete tables in batches of
   * 200 MB on data sets of 40 GB and more; at the runner's 200 MiB the same share is 2 MiB. The
   * engine default (200 MB) would hold the whole data set again as obsolete files and report that
   * as the style's space amplification.
   */
  static final long LAZY_DELETION_BYTES = 2L << 20;

  /** Eq. 3's share of gets in periodic's mix (70% gets; its scans run through iterators). */
  static final double PERIODIC_GET_FRACTION = 0.7;

  private final CairnRecipe recipe;
  /**
   * Cairn as shipped ({@code cairn-default}: Options.defaults() with the shared budgets only, no
   * recipe, no shape) with this change made to its options ({@link #asShippedBut}); null for a
   * named configuration, which its recipe sets.
   */
  private final UnaryOperator<Options.Builder> shippedBut;
  private Cairn db;
  /** Where the final statistics table goes: beside the database, which the runner deletes. */
  private Path statsFile;
  private IoStats io;
  private SeekDelayFileSystem slowDevice;

  public CairnTableEngine() {
    this(false);
  }

  /** @param dlc schedule compactions with Delayed L0 Compaction ({@code cairn-table+dlc}) */
  public CairnTableEngine(boolean dlc) {
    this(CairnRecipe.of(CairnRecipe.Style.TABLE).dlc(dlc));
  }

  /** Cairn as {@code recipe} sets it, e.g. {@code cairn-block} is {@code CairnRecipe.of(Style.BLOCK)}. */
  public CairnTableEngine(CairnRecipe recipe) {
    this(recipe, null);
  }

  private CairnTableEngine(CairnRecipe recipe, UnaryOperator<Options.Builder> shippedBut) {
    this.recipe = recipe;
    this.shippedBut = shippedBut;
  }

  /**
   * Cairn as a user gets it who changes nothing but the budgets every engine shares (cache,
   * memtable, block size, Bloom bits, the file system the device needs): {@code Options.defaults()}'s
   * compaction, cache policy and level shape, whatever they are in the build under test, with or
   * without {@code --engine-defaults}.
   */
  public static CairnTableEngine asShipped() {
    return asShippedBut(UnaryOperator.identity());
  }

  /**
   * A candidate default: Cairn as shipped ({@link #asShipped}) with {@code change} made to its
   * options, so that a series can put what a default would become beside what it is.
   */
  public static CairnTableEngine asShippedBut(UnaryOperator<Options.Builder> change) {
    return new CairnTableEngine(CairnRecipe.of(CairnRecipe.Style.TABLE), Objects.requireNonNull(change, "change"));
  }

  @Override
  public void open(Path dir, EngineSettings s) {
    Options.Builder builder = Options.builder()
        .createIfMissing(true)
        .errorIfExists(true)
        .memtableBytes(s.memtableBytes())
        .blockBytes(s.blockBytes())
        .bloomBitsPerKey(s.bloomBitsPerKey())
        .blockCacheBytes(s.blockCacheBytes())
        .compression(s.compression())
        .fileSystem(fileSystem(s));
    if (s.backgroundThreads() > 0) {
      builder.backgroundThreads(s.backgroundThreads());
    }
    Options options;
    if (shippedBut != null) {
      options = shippedBut.apply(builder).build();
    } else {
      // The buffer's own defaults: its trim pace and unit follow the base level (TrimPacing),
      // which puts the paper's 30 s and 2 MB at the runner's scale with no setting of ours.
      builder.compaction(recipe.settings(dlcConfig(s)));
      // A named configuration keeps what it was named and measured with, whatever the defaults
      // become: its flushes cache nothing unless its recipe says so.
      builder.flushCaching(Options.FlushCaching.NEVER);
      if (!s.engineDefaults()) { // the runner's level shape; with --engine-defaults, Cairn's own
        builder.baseLevelBytes(s.baseLevelBytes()).levelSizeRatio(s.levelSizeRatio()).targetFileBytes(s.targetFileBytes());
      }
      options = recipe.options().apply(builder).build();
    }
    io = options.fileSystem().ioStats();
    statsFile = dir.resolveSibling(dir.getFileName() + "-stats.txt");
    db = Cairn.open(dir, options);
    if (s.cacheTrace()) {
      // Beside the statistics, so the runner keeps it; an earlier round's gives way.
      Path trace = dir.resolveSibling(dir.getFileName() + "-cache.trace");
      try {
        java.nio.file.Files.deleteIfExists(trace);
      } catch (java.io.IOException e) {
        throw new java.io.UncheckedIOException("remove the earlier round's cache trace " + trace, e);
      }
      db.startBlockCacheTrace(trace);
    }
  }

  /** The local filesystem, behind a simulated seek delay when {@code --seek-delay-ms} is set. */
  private FileSystem fileSystem(EngineSettings s) {
    FileSystem local = new LocalFileSystem(s.directReads());
    if (s.seekDelayMillis() <= 0) {
      slowDevice = null;
      return local;
    }
    slowDevice = SeekDelayFileSystem.onTables(local, Duration.ofNanos(Math.round(s.seekDelayMillis() * 1e6)));
    return slowDevice;
  }

  @Override
  public java.util.Optional<Boolean> compactionsPending() {
    Stats s = db.stats();
    return java.util.Optional.of(s.compaction().running() > 0 || s.memtable().immutables() > 0
        || s.levels().stream().anyMatch(l -> l.score() >= 1));
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
  public int scanBackward(byte[] from, int limit) {
    int n = 0;
    try (CairnIterator it = db.iterator()) {
      for (it.seekForPrev(from); it.isValid() && n < limit; it.prev()) {
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

  /** Level 0's bytes are flushes, deeper levels' compaction output ({@link Stats.LevelStats#bytesWritten}). */
  @Override
  public long[] bytesWrittenByLevel() {
    return db.stats().levels().stream().mapToLong(Stats.LevelStats::bytesWritten).toArray();
  }

  /**
   * Bytes only the compaction buffer (LSbM) still holds: its extra disk space. NaN for a database
   * without a buffer (the runner leaves it out of the plot).
   */
  @Override
  public double bufferBytes() {
    Stats.Buffer buffer = db.stats().buffer();
    return buffer.enabled() ? buffer.bytes() : Double.NaN;
  }

  @Override
  public long simulatedSeeks() {
    return slowDevice == null ? EngineMetrics.UNAVAILABLE : slowDevice.seeks();
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
    return stats.stalls().totalMicros();
  }

  @Override
  public List<String> unhonouredSettings() {
    return List.of();
  }

  @Override
  public void close() {
    if (db != null) {
      writeFinalStats();
      db.close();
      db = null;
    }
  }

  /**
   * Keeps the engine's own statistics table at the end of the run (levels, buffer reads by level,
   * block compaction's counters), as the HBase and Cassandra engines keep their node summaries:
   * the figures that say why a run went as it did. A failure to write it costs only the file.
   */
  private void writeFinalStats() {
    try {
      java.nio.file.Files.writeString(statsFile, db.stats().toString());
    } catch (java.io.IOException | RuntimeException e) {
      // The run's result does not depend on it.
    }
  }
}
