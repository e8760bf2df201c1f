package dev.cairn.bench.engine;

import static dev.cairn.bench.engine.CairnRecipe.Style.BLOCK;
import static dev.cairn.bench.engine.CairnRecipe.Style.BUFFER;
import static dev.cairn.bench.engine.CairnRecipe.Style.TABLE;

import dev.cairn.compaction.block.BlockCompactionConfig;
import dev.cairn.compaction.block.LevelThresholds;
import dev.cairn.compaction.buffer.BufferConfig;
import dev.cairn.cache.EvictionPolicy;
import dev.cairn.Options;
import dev.cairn.compaction.dlc.DlcConfig;
import dev.cairn.compaction.leveled.CompactionPriority;
import dev.cairn.config.CompactionSettings;
import dev.cairn.config.Compression;
import dev.cairn.bench.engine.cassandra.CassandraEngine;
import dev.cairn.bench.engine.hbase.HBaseEngine;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;

/** The engines the runner knows, by command-line name. Adding an engine is one line here. */
public final class Engines {
  private static final Map<String, Supplier<BenchEngine>> BY_NAME = new LinkedHashMap<>();
  /** The host engines that run Cairn's plugin (see {@link #runsCairn}). */
  private static final Set<String> CAIRN_IN_A_HOST = new HashSet<>();
  /** A/A controls: an engine registered a second time under another name, to the name it repeats. */
  private static final Map<String, String> CONTROLS = Map.of("cairn-table-same", "cairn-table",
      "cairn-default-same", "cairn-default", "cassandra-ucs-same", "cassandra-ucs",
      "hbase-default-same", "hbase-default");
  /** cairn-dlsm's aggressive compaction starts after this long without a write. */
  static final long DLSM_IDLE_MILLIS = 5_000;
  /** cairn-dlsm's buffer bound, as a fraction of the levels' bytes (BufferConfig's default: 0.20). */
  private static final double DLSM_MAX_SPACE_FRACTION = 0.10;

  static {
    // Cairn as shipped: Options.defaults() but for the budgets every engine shares. The other
    // Cairn engines are candidate defaults and configurations that pin a choice; five of them are
    // the named configurations the default is judged against (DefaultMatrix.NAMED_CONFIGURATIONS).
    BY_NAME.put("cairn-default", CairnTableEngine::asShipped);
    BY_NAME.put("cairn-default-same", CairnTableEngine::asShipped);
    // Cairn as shipped under a third name, one that does not begin with cairn-default, and not a
    // control: whether a figure follows the engine or its name (docs/results/issue57/flush-evidence).
    // Not among the matrix's named configurations (DefaultMatrix.NAMED_CONFIGURATIONS), so its
    // table never takes it for the best of them.
    BY_NAME.put("cairn-shipped", CairnTableEngine::asShipped);
    // Candidate defaults (docs/decisions/0020): as shipped with one lever changed, the compaction
    // buffer at its own defaults as the execution (since lever 3, the shipped default written
    // out), or DLC at its own defaults as the scheduler.
    BY_NAME.put("cairn-default+buffer", () -> CairnTableEngine.asShippedBut(b -> b.compaction(
        CompactionSettings.leveled(CompactionSettings.Buffer.defaults()))));
    BY_NAME.put("cairn-default+dlc", () -> CairnTableEngine.asShippedBut(b -> b.compaction(
        CompactionSettings.leveled(CompactionSettings.Table.defaults(), DlcConfig.defaults()))));
    // As shipped with the default before's execution, or with one of cairn-dlsm's differences at
    // a time: which of them earns a configuration's lead over the default in a cell. Table
    // compaction in place of the buffer (which also gives its tables the database's Bloom bits,
    // not the buffer's stronger filters: cairn-default+filters10 below); the LRU in place of
    // TinyLFU over a clock; the buffer's bound at a tenth of the levels' bytes, cairn-dlsm's, in
    // place of a fifth (either scaled down by what a miss costs, MissCost).
    BY_NAME.put("cairn-default+table", () -> CairnTableEngine.asShippedBut(b -> b.compaction(
        CompactionSettings.leveled(CompactionSettings.Table.defaults()))));
    BY_NAME.put("cairn-default+lru", () -> CairnTableEngine.asShippedBut(
        b -> b.blockCacheEvictionPolicy(EvictionPolicy.LRU)));
    BY_NAME.put("cairn-default+bound10", () -> CairnTableEngine.asShippedBut(b -> b.compaction(
        CompactionSettings.leveled(new CompactionSettings.Buffer(
            BufferConfig.defaults().withMaxSpaceFraction(DLSM_MAX_SPACE_FRACTION))))));
    // Filters as strong as table compaction's under the shipped default, and as strong as the
    // buffer's under table compaction: every table of a database on the buffer takes log2(r)/ln 2
    // more Bloom bits a key than the database asks for (BufferBloom, r = 10: 4.8), so asking for 5
    // gives table compaction's 10, and table compaction given 15 the buffer's. Both fix their bits
    // whatever --bloom-bits says: the figures hold for the runner's 10.
    BY_NAME.put("cairn-default+filters10", () -> CairnTableEngine.asShippedBut(b -> b.bloomBitsPerKey(5)));
    BY_NAME.put("cairn-table+filters15", () -> new CairnTableEngine(
        CairnRecipe.of(TABLE).options(b -> b.bloomBitsPerKey(15))));
    // As shipped but storing its blocks with LZ4 whatever --compression says (every other engine
    // follows the flag): beside cairn-default under --compression none, what LZ4 as the default
    // codec would change, in one series (docs/decisions/0021).
    BY_NAME.put("cairn-default+lz4", () -> CairnTableEngine.asShippedBut(b -> b.compression(Compression.lz4())));
    BY_NAME.put("cairn-table", CairnTableEngine::new);
    // cairn-table under a second name: the A/A control, whose ratio to cairn-table in one series
    // is the runner's own spread between two engines that do the same work.
    BY_NAME.put("cairn-table-same", CairnTableEngine::new);
    // "+dlc": the same engine with Delayed L0 Compaction scheduling (docs/dlc.md).
    BY_NAME.put("cairn-table+dlc", () -> new CairnTableEngine(true));
    // LevelDB's round-robin seeds instead of the default min-overlap (docs/decisions/0005).
    BY_NAME.put("cairn-table-rr", () -> new CairnTableEngine(
        CairnRecipe.of(TABLE).priority(CompactionPriority.ROUND_ROBIN)));
    // Block compaction (BlockDB) and the compaction buffer (LSbM).
    BY_NAME.put("cairn-block", () -> new CairnTableEngine(CairnRecipe.of(BLOCK)));
    // Writes slowed at 8 level-0 tables and stopped at 12, LevelDB's triggers (Cairn's: 20 and 36),
    // so that a load cannot run the levels below far over their sizes: what block compaction's
    // dirty ratios depend on (docs/results/issue62).
    BY_NAME.put("cairn-table-l0-8", () -> new CairnTableEngine(
        CairnRecipe.of(TABLE).options(b -> b.l0SlowdownTrigger(8).l0StopTrigger(12))));
    BY_NAME.put("cairn-block-l0-8", () -> new CairnTableEngine(
        CairnRecipe.of(BLOCK).options(b -> b.l0SlowdownTrigger(8).l0StopTrigger(12))));
    // Level 0 merged into level 1 at 8 or 16 tables instead of 4 (writes still slowed at 20). In
    // the runner's level shape, where level 1's size is set, each merge brings two or four times
    // the memtables' worth into the same level 1, so a user byte is written there about
    // 1 + L1 / (trigger x memtable) times instead of 1 + L1 / (4 x memtable)
    // (docs/results/issue62, "The lever out of level 0"). With --engine-defaults level 1 is
    // derived as memtable x trigger and grows with the trigger.
    BY_NAME.put("cairn-table-batch8", () -> new CairnTableEngine(
        CairnRecipe.of(TABLE).options(b -> b.l0CompactionTrigger(8))));
    BY_NAME.put("cairn-table-batch16", () -> new CairnTableEngine(
        CairnRecipe.of(TABLE).options(b -> b.l0CompactionTrigger(16))));
    BY_NAME.put("cairn-block-batch8", () -> new CairnTableEngine(
        CairnRecipe.of(BLOCK).options(b -> b.l0CompactionTrigger(8))));
    // Block compaction on LevelDB's round-robin seeds, BlockDB's own base (beside cairn-table-rr).
    BY_NAME.put("cairn-block-rr", () -> new CairnTableEngine(
        CairnRecipe.of(BLOCK).priority(CompactionPriority.ROUND_ROBIN)));
    // Block compaction with the dirty-ratio caps it had before they were derived from the dirty
    // ratios merges bring (0.5 upper, 0.25 last level; LevelThresholds): the lever's A/B.
    BY_NAME.put("cairn-block-half-dirty", () -> new CairnTableEngine(CairnRecipe.of(BLOCK).block(b -> b.withPolicy(
        new BlockCompactionConfig(LevelThresholds.UPPER_HALF_DIRTY, LevelThresholds.LAST_QUARTER_DIRTY, false)))));
    // Block compaction with the last level's thresholds only for merges into the tree's deepest
    // level, where the default takes them wherever nothing lies below the merge's key range
    // (BlockCompactionConfig.LastLevel): while a tree grows, a level over a sparse level below
    // leans to rewriting with the default.
    BY_NAME.put("cairn-block-deepest-last", () -> new CairnTableEngine(CairnRecipe.of(BLOCK).block(b -> b.withPolicy(
        b.policy().withLastLevel(BlockCompactionConfig.LastLevel.DEEPEST_LEVEL)))));
    // Block compaction whose upper levels' filters reserve room for three times the keys a table
    // is built with (the default 0.4), what a table holds when it has grown to its size cap of
    // four times: an append whose keys overflow the reserve rebuilds the filter, which reads
    // every clean block of the table.
    BY_NAME.put("cairn-block-reserve3", () -> new CairnTableEngine(CairnRecipe.of(BLOCK).block(b -> b.withPolicy(
        new BlockCompactionConfig(LevelThresholds.UPPER_DEFAULT.withFilterReserve(3.0), LevelThresholds.LAST_DEFAULT,
            false)))));
    // Table and block compaction with every table of a 20 GB tree of 2 MiB tables kept and its
    // file open (Options.tableCacheFiles 20,000 files, Options.tableCacheBytes 1 GiB of index and
    // filter): what a point read costs when it opens neither a table nor a file.
    BY_NAME.put("cairn-table-open", () -> new CairnTableEngine(CairnRecipe.of(TABLE)
        .options(b -> b.tableCacheFiles(20_000).tableCacheBytes(1L << 30))));
    BY_NAME.put("cairn-block-open", () -> new CairnTableEngine(CairnRecipe.of(BLOCK)
        .options(b -> b.tableCacheFiles(20_000).tableCacheBytes(1L << 30))));
    // Table compaction with 500 table files open at most and every table kept (1 TiB of index
    // and filter): what a point read costs when its table's file was closed for the open-file
    // bound (docs/decisions/0028, point 4), beside cairn-table-open.
    BY_NAME.put("cairn-table-files500", () -> new CairnTableEngine(CairnRecipe.of(TABLE)
        .options(b -> b.tableCacheFiles(500).tableCacheBytes(1L << 40))));
    // Block compaction merging one target at a time (BlockCompactionExecution.parallelism 1).
    BY_NAME.put("cairn-block-p1", () -> new CairnTableEngine(
        CairnRecipe.of(BLOCK).block(b -> b.withIo(b.io().withParallelism(1)))));
    BY_NAME.put("cairn-buffer", () -> new CairnTableEngine(CairnRecipe.of(BUFFER)));
    // The buffer as the paper has it, for A/B runs (docs/compaction.md, "Measured"): a level's
    // buffer dropped as its data merges down, the freeze on repeated data, the plain trim.
    BY_NAME.put("cairn-buffer-paper", () -> new CairnTableEngine(CairnRecipe.of(BUFFER).buffer(
        c -> c.withCarryBuffers(false).withFreezeRepeatedFraction(0.1).withColdRunBudget(0))));
    // The buffer's space against its hit ratio (docs/compaction.md, "The space bound"): a bound of
    // 10%, 15% or 30% of the levels' bytes instead of 20%, each
    // scaled by the miss's cost as the default is, and none at all; and the buffer without part
    // compaction.
    BY_NAME.put("cairn-buffer-s10", () -> new CairnTableEngine(CairnRecipe.of(BUFFER).buffer(
        c -> c.withMaxSpaceFraction(0.10))));
    BY_NAME.put("cairn-buffer-s15", () -> new CairnTableEngine(CairnRecipe.of(BUFFER).buffer(
        c -> c.withMaxSpaceFraction(0.15))));
    BY_NAME.put("cairn-buffer-s30", () -> new CairnTableEngine(CairnRecipe.of(BUFFER).buffer(
        c -> c.withMaxSpaceFraction(0.30))));
    BY_NAME.put("cairn-buffer-s1000", () -> new CairnTableEngine(CairnRecipe.of(BUFFER).buffer(
        c -> c.withMaxSpaceFraction(1000).withFullBoundMissMicros(0))));
    // Part compaction of files whose parts keep up to 80% of them (default: half), at the default
    // bound and at 15%.
    BY_NAME.put("cairn-buffer-r80", () -> new CairnTableEngine(CairnRecipe.of(BUFFER).buffer(
        c -> c.withPartRewriteFraction(0.8))));
    BY_NAME.put("cairn-buffer-s15-r80", () -> new CairnTableEngine(CairnRecipe.of(BUFFER).buffer(
        c -> c.withMaxSpaceFraction(0.15).withPartRewriteFraction(0.8))));
    BY_NAME.put("cairn-buffer-no-rewrite", () -> new CairnTableEngine(CairnRecipe.of(BUFFER).buffer(
        c -> c.withPartRewriteFraction(0))));
    // Every merge input and target appended, warm or not (the default before cold arrivals were
    // left out: docs/compaction.md, "Cold arrivals").
    BY_NAME.put("cairn-buffer-keep-cold", () -> new CairnTableEngine(CairnRecipe.of(BUFFER).buffer(
        c -> c.withKeepColdArrivals(true))));
    // The whole space bound whatever a miss costs (the default before the bound followed the
    // miss's cost: docs/compaction.md, "What a miss costs").
    BY_NAME.put("cairn-buffer-full-bound", () -> new CairnTableEngine(CairnRecipe.of(BUFFER).buffer(
        c -> c.withFullBoundMissMicros(0))));
    // dLSM's two-phase compaction (docs/compaction.md "Two-phase compaction"): table
    // compaction with L1-L4 laid out as two insertion / deletion pairs; the paper's LSM baseline.
    BY_NAME.put("cairn-table-2pc", () -> new CairnTableEngine(CairnRecipe.of(TABLE).twoPhase(true)));
    // dLSM: the compaction buffer over two-phase levels, each pair's buffer moving with its
    // insertion part at the round's end; aggressive compaction once writes stop for 5 s; flushed
    // blocks cached as they are written, in an LRU block cache (W-TinyLFU turns new blocks away,
    // and the "Latest" workloads read new blocks first: docs/compaction.md, "The block cache's
    // policy"); the buffer bounded at a tenth of the levels' bytes, not LSbM's fifth (over
    // two-phase levels a tenth kept the hit ratio at a lower peak space on rangehot and zipfian).
    BY_NAME.put("cairn-dlsm", () -> new CairnTableEngine(dlsm()));
    // cairn-dlsm with Caffeine's W-TinyLFU block cache in place of the LRU.
    BY_NAME.put("cairn-dlsm-tinylfu", () -> new CairnTableEngine(
        dlsm().options(b -> b.blockCacheEvictionPolicy(EvictionPolicy.TINY_LFU))));
    // dLSM's buffer as the paper builds it: every merge input kept (cold or not), no trim, no
    // carried buffers (a deletion part's buffer goes as it drains); the space bound stays.
    BY_NAME.put("cairn-dlsm-paper", () -> new CairnTableEngine(
        dlsm().buffer(c -> c.withKeepColdArrivals(true).withTrimCachedFraction(0).withCarryBuffers(false))));
    // cairn-dlsm with the buffer bounded at BufferConfig's default fifth of the levels' bytes, not a
    // tenth: the hit ratio that fifth buys over a tenth, against the peak space.
    BY_NAME.put("cairn-dlsm-s20", () -> new CairnTableEngine(dlsmLayout(CairnRecipe.of(BUFFER))));
    // cairn-dlsm with the trim paced by time alone (a pass every 30 s, the paper's), not by the
    // bytes written: arrivals are judged only after reads had time to warm them.
    BY_NAME.put("cairn-dlsm-trim30", () -> new CairnTableEngine(
        dlsm().buffer(c -> c.withTrimPassesPerBaseLevel(0))));
    // Range queries through the buffer where a merge proves it exact (BufferConfig.
    // scansThroughBuffer, off by default): the buffer's scans against the tree's
    // (docs/compaction.md, "Range queries through the buffer").
    BY_NAME.put("cairn-buffer-scans", () -> new CairnTableEngine(CairnRecipe.of(BUFFER).buffer(
        c -> c.withScansThroughBuffer(true))));
    BY_NAME.put("cairn-dlsm-scans", () -> new CairnTableEngine(
        dlsm().buffer(c -> c.withScansThroughBuffer(true))));
    // Table compaction with cairn-dlsm's aggressive compaction, for the dynamic experiment
    // (latest-rangehot-quiet) as the paper runs it: LSM and dLSM both draining once writes stop.
    BY_NAME.put("cairn-table-idle", () -> new CairnTableEngine(
        CairnRecipe.of(TABLE).idleDrainMillis(DLSM_IDLE_MILLIS)));
    // Flushed blocks cached as they are written (Options.cacheFlushedBlocks, which cairn-dlsm
    // sets): what that alone does for table compaction, leveled and two-phase.
    BY_NAME.put("cairn-table-warm", () -> new CairnTableEngine(
        CairnRecipe.of(TABLE).options(b -> b.cacheFlushedBlocks(true))));
    // cairn-table with flushes caching their blocks only while reads follow the writes
    // (Options.FlushCaching.ADAPTIVE, docs/decisions/0020): against cairn-table-warm and cairn-table.
    BY_NAME.put("cairn-table-warm-auto", () -> new CairnTableEngine(
        CairnRecipe.of(TABLE).options(b -> b.flushCaching(Options.FlushCaching.ADAPTIVE))));
    BY_NAME.put("cairn-table-2pc-warm", () -> new CairnTableEngine(
        CairnRecipe.of(TABLE).twoPhase(true).options(b -> b.cacheFlushedBlocks(true))));
    // Table compaction with an LRU block cache (Options.blockCacheEvictionPolicy), alone, with
    // flushed blocks cached, and with those over two-phase levels: what of cairn-dlsm's gain on
    // the "Latest" workloads is the cache's, and what the layout's.
    BY_NAME.put("cairn-table-lru", () -> new CairnTableEngine(
        CairnRecipe.of(TABLE).options(b -> b.blockCacheEvictionPolicy(EvictionPolicy.LRU))));
    BY_NAME.put("cairn-table-warm-lru", () -> new CairnTableEngine(
        CairnRecipe.of(TABLE).options(b -> b.cacheFlushedBlocks(true).blockCacheEvictionPolicy(EvictionPolicy.LRU))));
    BY_NAME.put("cairn-table-2pc-warm-lru", () -> new CairnTableEngine(
        CairnRecipe.of(TABLE).twoPhase(true)
            .options(b -> b.cacheFlushedBlocks(true).blockCacheEvictionPolicy(EvictionPolicy.LRU))));
    // The block cache on Caffeine's W-TinyLFU (EvictionPolicy.TINY_LFU) in place of the default,
    // TinyLFU's admission over a CLOCK (docs/decisions/0016; records name that default
    // cairn-table-clock and cairn-block-clock where they compare the two).
    BY_NAME.put("cairn-table-caffeine", () -> new CairnTableEngine(
        CairnRecipe.of(TABLE).options(b -> b.blockCacheEvictionPolicy(EvictionPolicy.TINY_LFU))));
    BY_NAME.put("cairn-block-caffeine", () -> new CairnTableEngine(
        CairnRecipe.of(BLOCK).options(b -> b.blockCacheEvictionPolicy(EvictionPolicy.TINY_LFU))));
    // The dLSM configuration with one mechanism off at a time, so that each figure names the
    // mechanism that earns it: the engine's default cache (TinyLFU admission over a CLOCK) in
    // place of the LRU, flushed blocks not cached, leveled in place of two-phase levels, and no
    // compaction buffer (which is cairn-table-2pc-warm-lru under a name that says what it ablates).
    BY_NAME.put("cairn-dlsm-no-lru", () -> new CairnTableEngine(
        dlsm().options(b -> b.blockCacheEvictionPolicy(Options.defaults().blockCacheEvictionPolicy()))));
    BY_NAME.put("cairn-dlsm-no-warm", () -> new CairnTableEngine(
        dlsm().options(b -> b.cacheFlushedBlocks(false))));
    BY_NAME.put("cairn-dlsm-no-2pc", () -> new CairnTableEngine(dlsm().twoPhase(false)));
    BY_NAME.put("cairn-dlsm-no-buffer", () -> new CairnTableEngine(dlsmLayout(CairnRecipe.of(TABLE))));
    BY_NAME.put("rocksdb", RocksDbEngine::new);
    // RocksDB with its cache-keeping options on (RocksDbEngine.Tuning.BEST, docs/benchmarks.md).
    BY_NAME.put("rocksdb-best", () -> new RocksDbEngine(RocksDbEngine.Tuning.BEST));
    // RocksDB at its defaults without the runner's counting (RocksDbEngine.Tuning.UNCOUNTED): beside
    // rocksdb, what the Statistics object and the per-read perf context cost its reads.
    BY_NAME.put("rocksdb-uncounted", () -> new RocksDbEngine(RocksDbEngine.Tuning.UNCOUNTED));
    BY_NAME.put("leveldb", LevelDbJniEngine::new);
    BY_NAME.put("leveldb-java", LevelDbJavaEngine::new);
    // Apache Cassandra 5.0.9, a node per run in a child JVM (docs/benchmarks.md, "Cassandra engines"):
    // LCS, UCS and Cairn's compaction strategy, the same node and table otherwise.
    for (CassandraEngine.Strategy s : CassandraEngine.Strategy.values()) {
      BY_NAME.put(s.engineName(), () -> new CassandraEngine(s));
      if (s.runsCairn()) {
        CAIRN_IN_A_HOST.add(s.engineName());
      }
    }
    // Apache HBase 2.6.1, a standalone server per run in a child JVM (docs/benchmarks.md, "HBase
    // engines"): the default store, HBase's two cold-cache remedies, and Cairn's compaction policy.
    for (HBaseEngine.Variant v : HBaseEngine.Variant.values()) {
      BY_NAME.put(v.engineName(), () -> new HBaseEngine(v));
      if (v.runsCairn()) {
        CAIRN_IN_A_HOST.add(v.engineName());
      }
    }
    // The hosts' A/A controls, for a series of the plugins against their hosts: a series takes
    // its noise band from a control pair of its own kind of process.
    BY_NAME.put("cassandra-ucs-same", () -> new CassandraEngine(CassandraEngine.Strategy.UCS));
    BY_NAME.put("hbase-default-same", () -> new HBaseEngine(HBaseEngine.Variant.DEFAULT));
  }

  private Engines() {}

  /** cairn-dlsm (see its registration). */
  private static CairnRecipe dlsm() {
    return dlsmLayout(CairnRecipe.of(BUFFER)).buffer(c -> c.withMaxSpaceFraction(DLSM_MAX_SPACE_FRACTION));
  }

  /**
   * cairn-dlsm's settings besides the buffer's bound: two-phase levels, aggressive compaction once
   * writes stop, flushed blocks cached in an LRU block cache.
   */
  private static CairnRecipe dlsmLayout(CairnRecipe r) {
    return r.twoPhase(true).idleDrainMillis(DLSM_IDLE_MILLIS)
        .options(b -> b.cacheFlushedBlocks(true).blockCacheEvictionPolicy(EvictionPolicy.LRU));
  }

  public static List<String> names() {
    return List.copyOf(BY_NAME.keySet());
  }

  public static boolean exists(String name) {
    return BY_NAME.containsKey(name);
  }

  /** A new, unopened engine; requires {@link #exists(String)}. */
  public static BenchEngine create(String name) {
    Supplier<BenchEngine> factory = BY_NAME.get(name);
    if (factory == null) {
      throw new IllegalArgumentException("unknown engine '" + name + "'; valid: " + String.join(", ", names()));
    }
    return factory.get();
  }

  /**
   * The engine that {@code name} repeats under another name when {@code name} is an A/A control
   * (their ratio in a series is the runner's own noise: docs/benchmarks.md, "Series"), else empty.
   */
  public static java.util.Optional<String> controlOf(String name) {
    return java.util.Optional.ofNullable(CONTROLS.get(name));
  }

  /**
   * Whether {@code name} is one of Cairn's own engines, its process Cairn's (a single run's report
   * takes its Cairn/peer ratios from this, and only these honour {@code --seek-delay-ms}).
   */
  public static boolean isCairn(String name) {
    return name.startsWith("cairn-");
  }

  /**
   * Whether {@code name} runs Cairn's code: its own engines, and a host with Cairn's plugin
   * ({@code hbase-dlc}, {@code hbase-buffer}, {@code cassandra-cairn}). A series sets these over
   * every other engine, so that a plugin is judged against its host at its defaults and at its best.
   */
  public static boolean runsCairn(String name) {
    return isCairn(name) || CAIRN_IN_A_HOST.contains(name);
  }
}
