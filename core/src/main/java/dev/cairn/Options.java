package dev.cairn;

import dev.cairn.cache.EvictionPolicy;
import dev.cairn.config.CompactionSettings;
import dev.cairn.config.Compression;
import dev.cairn.fs.FileSystem;
import dev.cairn.fs.LocalFileSystem;
import dev.cairn.key.UserKeys;
import java.time.Clock;
import java.time.Duration;

/**
 * Immutable database options, made with {@link #builder()}. Every value is validated by
 * {@link Builder#build()}, which names the first bad option. Defaults are documented per method.
 */
public final class Options {
  /** Keys longer than this are rejected (the manifest and index carry keys whole). */
  public static final int MAX_KEY_BYTES = UserKeys.MAX_BYTES;
  /** Values longer than this are rejected (a WAL record of one write stays bounded). */
  public static final int MAX_VALUE_BYTES = 64 * 1024 * 1024;
  /** Levels 0..MAX_LEVELS-1. */
  public static final int MAX_LEVELS = 7;
  /** {@link Builder#baseLevelBytes}, {@link Builder#targetFileBytes}: derive the size from the memtable. */
  public static final long DERIVED = 0;
  /** The least derived L1 size, LevelDB's fixed one. */
  public static final long MIN_DERIVED_BASE_LEVEL_BYTES = 10L << 20;
  /** The least derived table size, LevelDB's. */
  public static final long MIN_DERIVED_TARGET_FILE_BYTES = 2L << 20;
  /** The largest derived table size, RocksDB's default. */
  public static final long MAX_DERIVED_TARGET_FILE_BYTES = 64L << 20;

  /** What recovery does with a damaged write-ahead log (see docs/operations.md). */
  public enum WalRecoveryMode {
    /**
     * Default. A torn or corrupt record at the very tail of the newest log (a crash during a
     * write) is dropped; damage before the tail, or a record after missing writes, fails the open.
     */
    TOLERATE_CORRUPTED_TAIL,
    /** Any damage fails the open. */
    ABSOLUTE_CONSISTENCY,
    /** Recover up to the first damage (or record after missing writes); drop the rest, later logs too. */
    POINT_IN_TIME,
    /** Skip damaged records and keep going (may lose writes in the middle of the log). */
    SKIP_ANY_CORRUPTED
  }

  /** Whether a flush puts the blocks it writes into the block cache ({@link #flushCaching()}). */
  public enum FlushCaching {
    /** Never: the blocks are read back from the device on their first read. */
    NEVER,
    /** Every flush (RocksDB's {@code prepopulate_block_cache = kFlushOnly}). */
    ALWAYS,
    /**
     * As the reads say: on at open, kept while point reads find their keys in the tables flushed
     * since the last decision several times as often as those tables' share of the data says,
     * off when they do not, on again when they do (the rule: {@code FlushCachingPolicy}; the
     * choice and its evidence: {@code Stats.flush()}).
     */
    ADAPTIVE
  }

  /**
   * The values, in a copy of the builder that built them that nothing else holds: an option is
   * written once, in the builder, and read from here.
   */
  private final Builder values;

  private Options(Builder values) {
    this.values = values;
  }

  public static Builder builder() {
    return new Builder();
  }

  public static Options defaults() {
    return builder().build();
  }

  /** A builder holding this instance's values, to derive options that differ in a few. */
  public Builder toBuilder() {
    return values.copy();
  }

  /** Create the database if the directory holds none. Default true. */
  public boolean createIfMissing() {
    return values.createIfMissing;
  }

  /** Fail the open if a database already exists. Default false. */
  public boolean errorIfExists() {
    return values.errorIfExists;
  }

  /**
   * Bytes a memtable may hold before it is switched and flushed. Default 32 MiB
   * (docs/decisions/0012): memory on the heap, up to this much for the active memtable and as
   * much again for each immutable one awaiting its flush ({@link #maxImmutableMemtables()}):
   * 96 MiB at most by default.
   */
  public long memtableBytes() {
    return values.memtableBytes;
  }

  /** Immutable memtables waiting for flush before writes stop. Default 2. */
  public int maxImmutableMemtables() {
    return values.maxImmutableMemtables;
  }

  /** Target uncompressed data block size. Default 4 KiB. */
  public int blockBytes() {
    return values.blockBytes;
  }

  /** Keys between restart points in a data block. Default 16. */
  public int blockRestartInterval() {
    return values.blockRestartInterval;
  }

  /** Bloom filter bits per key; 0 disables filters. Default 10 (about 1% false positives). */
  public int bloomBitsPerKey() {
    return values.bloomBitsPerKey;
  }

  /**
   * How new tables' data and index blocks are stored, but at the bottommost level: flushes, and
   * compactions into levels with data below. Default none. Applies to tables written from then on.
   */
  public Compression compression() {
    return values.compression;
  }

  /** The same for compactions with no data below their output (RocksDB's {@code bottommost_compression}). */
  public Compression bottommostCompression() {
    return values.bottommostCompression != null ? values.bottommostCompression : values.compression;
  }

  /** L0 files that trigger an L0 compaction. Default 4 (LevelDB's and RocksDB's). */
  public int l0CompactionTrigger() {
    return values.l0CompactionTrigger;
  }

  /**
   * L0 files from which writes are paced ({@link #delayedWriteBytesPerSecond()}). Default 20,
   * RocksDB's (LevelDB's 8 cost a third of the load's puts/s in stalls: docs/decisions/0006).
   */
  public int l0SlowdownTrigger() {
    return values.l0SlowdownTrigger;
  }

  /** L0 files at which writes stop until compaction catches up. Default 36, RocksDB's. */
  public int l0StopTrigger() {
    return values.l0StopTrigger;
  }

  /**
   * The pace of writes at {@link #l0SlowdownTrigger()} L0 files, falling by a step per file
   * towards {@link #l0StopTrigger()} (to a sixteenth at the slowest); a write group sleeps only
   * once the writes are a millisecond ahead of it. Default 16 MiB/s (RocksDB's {@code
   * delayed_write_rate}).
   */
  public long delayedWriteBytesPerSecond() {
    return values.delayedWriteBytesPerSecond;
  }

  /** Size ratio between adjacent levels. Default 10. */
  public int levelSizeRatio() {
    return values.levelSizeRatio;
  }

  /**
   * Maximum bytes of L1; level n holds base * ratio^(n-1). Unless set, derived from the memtable:
   * {@code memtableBytes * l0CompactionTrigger}, what one L0 -> L1 compaction brings, and at
   * least {@value #MIN_DERIVED_BASE_LEVEL_BYTES} bytes (LevelDB's L1): 128 MiB at the default
   * 32 MiB memtable, 16 MiB at a 4 MiB one. An L1 smaller than that is rewritten whole by every
   * L0 -> L1 compaction and overflows while L1 -> L2 catches up (docs/decisions/0008).
   */
  public long baseLevelBytes() {
    return values.baseLevelBytes != DERIVED ? values.baseLevelBytes
        : Math.max(MIN_DERIVED_BASE_LEVEL_BYTES, values.memtableBytes * values.l0CompactionTrigger);
  }

  /**
   * Size at which compaction output is cut into a new table. Unless set, a quarter of the base
   * level ({@link #baseLevelBytes()}), between {@value #MIN_DERIVED_TARGET_FILE_BYTES} and
   * {@value #MAX_DERIVED_TARGET_FILE_BYTES} bytes: 32 MiB at the default 32 MiB memtable, 4 MiB at
   * a 4 MiB one (RocksDB: 64 MiB tables in a 256 MiB L1). Every output table costs an fsync, which
   * on a virtual disk costs milliseconds whatever its size (docs/decisions/0009).
   */
  public long targetFileBytes() {
    if (values.targetFileBytes != DERIVED) {
      return values.targetFileBytes;
    }
    long quarter = baseLevelBytes() / 4;
    return Math.min(MAX_DERIVED_TARGET_FILE_BYTES, Math.max(MIN_DERIVED_TARGET_FILE_BYTES, quarter));
  }

  /** Off-heap block cache capacity; 0 disables it (a WARNING at open says so). Default 32 MiB. */
  public long blockCacheBytes() {
    return values.blockCacheBytes;
  }

  /**
   * What the block cache evicts for room. Default {@link EvictionPolicy#TINY_LFU_CLOCK}
   * (frequency decides admission, scans do not flush the hot set, a hit only sets a bit:
   * docs/decisions/0016); {@link EvictionPolicy#TINY_LFU} is Caffeine's W-TinyLFU, the default
   * before; {@link EvictionPolicy#LRU} admits every block, which suits workloads whose reads
   * follow their newest writes (docs/compaction.md, "Flushed blocks in the cache").
   */
  public EvictionPolicy blockCacheEvictionPolicy() {
    return values.blockCacheEvictionPolicy;
  }

  /**
   * Most table files open at once. Unless set, a quarter of the process's open-file limit,
   * between 500 and 100,000 (1,000 where it cannot be read). A kept table's file closes under it
   * and opens again on the table's next read, its index and filter kept (decision 0028).
   */
  public int tableCacheFiles() {
    return values.tableCacheFiles != DERIVED ? values.tableCacheFiles : TableCacheBounds.filesForThisProcess();
  }

  /**
   * Most bytes of index and filter the kept tables pin on the heap (about 2.3% of their data with
   * 4 KiB blocks of 1 KiB values): the bound on the tables kept. Unless set, an eighth of the
   * maximum heap, at least 32 MiB. A point read opens each table it consults that is not kept (a
   * footer, an index and a filter read and decoded): a tree of more tables pays it on most reads.
   */
  public long tableCacheBytes() {
    return values.tableCacheBytes != DERIVED ? values.tableCacheBytes : TableCacheBounds.bytesForThisProcess();
  }

  /** Whether both table cache bounds are unset: the process's then bound every such database together. */
  public boolean tableCacheBoundsDerived() {
    return values.tableCacheFiles == DERIVED && values.tableCacheBytes == DERIVED;
  }

  /** Whether writes without explicit {@link WriteOptions} sync the WAL. Default false. */
  public boolean syncWrites() {
    return values.syncWrites;
  }

  /** Threads for flushes and compactions. Default 2. */
  public int backgroundThreads() {
    return values.backgroundThreads;
  }

  /** Default {@link WalRecoveryMode#TOLERATE_CORRUPTED_TAIL}. */
  public WalRecoveryMode walRecoveryMode() {
    return values.walRecoveryMode;
  }

  /**
   * How compactions run: the level layout, what a merge does, and when plans run ({@link
   * CompactionSettings}, whose types admit only the combinations the engine runs). Default
   * {@link CompactionSettings#defaults()}: leveled, merged through the compaction buffer at its
   * defaults, plans run as soon as they are due.
   */
  public CompactionSettings compaction() {
    return values.compaction;
  }

  /**
   * Whether a flush inserts each data block it writes into the block cache: the first reads of
   * the newest data, which workloads that read what was just written ("latest") concentrate on,
   * then hit the cache instead of reading back each block that was just written. Costs cache room
   * where new data is not read soon. Default {@link FlushCaching#ADAPTIVE}: on while the reads
   * follow the writes (docs/decisions/0020).
   */
  public FlushCaching flushCaching() {
    return values.flushCaching;
  }

  /**
   * Obsolete files are deleted in batches once their total size passes this many bytes (and at
   * close). Default 0: delete as soon as unreferenced.
   */
  public long obsoleteFileBatchBytes() {
    return values.obsoleteFileBatchBytes;
  }

  /**
   * Flush, compaction and buffer outputs (every file of those I/O purposes) are synced each time
   * this many more bytes have been written to them ({@code dev.cairn.fs.IncrementalSyncFile}), so that their bytes reach the device as they
   * are written rather than in one burst when the output is finished. Default 0: off, each output
   * synced once when finished, as RocksDB does by default; on this machine's disk every sync costs
   * a device cache flush, and syncing each MiB loaded 7% slower (docs/decisions/0007). For devices
   * where one large sync stalls other I/O.
   */
  public long bytesPerSync() {
    return values.bytesPerSync;
  }

  /**
   * Whether a compaction ends an output table where its keys step past a file of the level below
   * the output's, once the table holds half its target size ({@code
   * dev.cairn.compaction.OutputCuts}): tables then overlap fewer files below them, and their own
   * compactions rewrite less, at the cost of some tables up to half short of the target. Default
   * true (RocksDB aligns its outputs the same way by default).
   */
  public boolean alignCompactionOutputs() {
    return values.alignCompactionOutputs;
  }

  /** What compactions ask about each key's newest value ({@link CompactionFilter}). Default null: none. */
  public CompactionFilter compactionFilter() {
    return values.compactionFilter;
  }

  /**
   * How long a value lives after it was written, RocksDB's {@code TtlDB}: a value older than this
   * reads as absent and compactions remove it. Each value then carries its write time (4 bytes, in
   * seconds, docs/format.md "Values with a write time"), so a value holds at most {@link
   * #MAX_VALUE_BYTES} - 4 bytes, and a database created with a TTL opens only with one (and one
   * created without, only without). Default null: values live until deleted.
   */
  public Duration ttl() {
    return values.ttl;
  }

  /** The clock write times and expiry are read from (a test's own). Default the system's, UTC. */
  public Clock clock() {
    return values.clock;
  }

  /** How merges combine with a key's value ({@link MergeOperator}). Default null: merges are refused. */
  public MergeOperator mergeOperator() {
    return values.mergeOperator;
  }

  /** The filesystem layer. Default the local filesystem. */
  public FileSystem fileSystem() {
    return values.fileSystem;
  }

  @Override
  public String toString() {
    return OptionsText.render(this, values.baseLevelBytes == DERIVED, values.targetFileBytes == DERIVED,
        values.tableCacheFiles == DERIVED, values.tableCacheBytes == DERIVED);
  }

  /** Mutable builder; {@link #build()} validates ({@code OptionChecks} reads the fields). */
  public static final class Builder implements Cloneable {
    boolean createIfMissing = true;
    boolean errorIfExists = false;
    long memtableBytes = 32L << 20; // docs/decisions/0012
    int maxImmutableMemtables = 2;
    int blockBytes = 4096;
    int blockRestartInterval = 16;
    int bloomBitsPerKey = 10;
    Compression compression = Compression.none();
    Compression bottommostCompression; // null: as compression
    int l0CompactionTrigger = 4;
    int l0SlowdownTrigger = 20;
    int l0StopTrigger = 36;
    long delayedWriteBytesPerSecond = 16L << 20;
    int levelSizeRatio = 10;
    /** {@link #DERIVED}: from the memtable and the L0 trigger ({@link Options#baseLevelBytes()}). */
    long baseLevelBytes = DERIVED;
    /** {@link #DERIVED}: a quarter of the base level ({@link Options#targetFileBytes()}). */
    long targetFileBytes = DERIVED;
    long blockCacheBytes = 32L << 20;
    EvictionPolicy blockCacheEvictionPolicy = EvictionPolicy.TINY_LFU_CLOCK;
    /** {@link #DERIVED}: from the process's open-file limit ({@link Options#tableCacheFiles()}). */
    int tableCacheFiles = (int) DERIVED;
    /** {@link #DERIVED}: from the JVM's maximum heap ({@link Options#tableCacheBytes()}). */
    long tableCacheBytes = DERIVED;
    boolean syncWrites = false;
    int backgroundThreads = 2;
    WalRecoveryMode walRecoveryMode = WalRecoveryMode.TOLERATE_CORRUPTED_TAIL;
    CompactionSettings compaction = CompactionSettings.defaults();
    long obsoleteFileBatchBytes = 0;
    FlushCaching flushCaching = FlushCaching.ADAPTIVE;
    long bytesPerSync = 0;
    boolean alignCompactionOutputs = true;
    CompactionFilter compactionFilter;
    Duration ttl;
    Clock clock = Clock.systemUTC();
    MergeOperator mergeOperator;
    FileSystem fileSystem;

    private Builder() {}

    /** An independent copy: every field is an immutable value, so a shallow copy is one. */
    private Builder copy() {
      try {
        return (Builder) clone();
      } catch (CloneNotSupportedException e) {
        throw new AssertionError(e);
      }
    }

    public Builder createIfMissing(boolean v) { createIfMissing = v; return this; }
    public Builder errorIfExists(boolean v) { errorIfExists = v; return this; }
    public Builder memtableBytes(long v) { memtableBytes = v; return this; }
    public Builder maxImmutableMemtables(int v) { maxImmutableMemtables = v; return this; }
    public Builder blockBytes(int v) { blockBytes = v; return this; }
    public Builder blockRestartInterval(int v) { blockRestartInterval = v; return this; }
    public Builder bloomBitsPerKey(int v) { bloomBitsPerKey = v; return this; }
    /** {@link Options#compression()}. */
    public Builder compression(Compression v) { compression = v; return this; }
    /** {@link Options#bottommostCompression()}; null for the same as {@link #compression}. */
    public Builder bottommostCompression(Compression v) { bottommostCompression = v; return this; }
    public Builder l0CompactionTrigger(int v) { l0CompactionTrigger = v; return this; }
    public Builder l0SlowdownTrigger(int v) { l0SlowdownTrigger = v; return this; }
    public Builder l0StopTrigger(int v) { l0StopTrigger = v; return this; }
    public Builder delayedWriteBytesPerSecond(long v) { delayedWriteBytesPerSecond = v; return this; }
    public Builder levelSizeRatio(int v) { levelSizeRatio = v; return this; }
    /** L1's bytes; 0 (the default) derives them from the memtable ({@link Options#baseLevelBytes()}). */
    public Builder baseLevelBytes(long v) { baseLevelBytes = v; return this; }
    /** Output table size; 0 (the default) derives it from the base level ({@link Options#targetFileBytes()}). */
    public Builder targetFileBytes(long v) { targetFileBytes = v; return this; }
    public Builder blockCacheBytes(long v) { blockCacheBytes = v; return this; }
    public Builder blockCacheEvictionPolicy(EvictionPolicy v) { blockCacheEvictionPolicy = v; return this; }
    /** {@link Options#tableCacheFiles()}; 0 (the default) derives it from the open-file limit. */
    public Builder tableCacheFiles(int v) { tableCacheFiles = v; return this; }
    /** {@link Options#tableCacheBytes()}; 0 (the default) derives it from the heap. */
    public Builder tableCacheBytes(long v) { tableCacheBytes = v; return this; }
    public Builder syncWrites(boolean v) { syncWrites = v; return this; }
    public Builder backgroundThreads(int v) { backgroundThreads = v; return this; }
    public Builder walRecoveryMode(WalRecoveryMode v) { walRecoveryMode = v; return this; }
    /** {@link Options#compaction()}. */
    public Builder compaction(CompactionSettings v) { compaction = v; return this; }
    public Builder flushCaching(FlushCaching v) { flushCaching = v; return this; }
    /** {@link FlushCaching#ALWAYS} or {@link FlushCaching#NEVER}. */
    public Builder cacheFlushedBlocks(boolean v) { return flushCaching(v ? FlushCaching.ALWAYS : FlushCaching.NEVER); }
    public Builder obsoleteFileBatchBytes(long v) { obsoleteFileBatchBytes = v; return this; }
    public Builder bytesPerSync(long v) { bytesPerSync = v; return this; }
    public Builder alignCompactionOutputs(boolean v) { alignCompactionOutputs = v; return this; }
    /** {@link Options#compactionFilter()}; null for none. */
    public Builder compactionFilter(CompactionFilter v) { compactionFilter = v; return this; }
    /** {@link Options#ttl()}; null for none. */
    public Builder ttl(Duration v) { ttl = v; return this; }
    public Builder clock(Clock v) { clock = v; return this; }
    /** {@link Options#mergeOperator()}; null for none. */
    public Builder mergeOperator(MergeOperator v) { mergeOperator = v; return this; }
    public Builder fileSystem(FileSystem v) { fileSystem = v; return this; }

    /** Validates every value and returns the options; throws naming the first invalid one. */
    public Options build() {
      OptionChecks.validate(this);
      // Each build without an explicit filesystem gets its own LocalFileSystem, so that a
      // database's I/O counters are its own.
      Builder values = copy();
      values.fileSystem = fileSystem != null ? fileSystem : new LocalFileSystem();
      return new Options(values);
    }
  }
}
