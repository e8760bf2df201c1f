package dev.cairn;

import dev.cairn.cache.CacheStats;
import dev.cairn.compaction.dlc.LoadClass;
import java.util.List;

/**
 * A point-in-time snapshot of a database's statistics, grouped by subsystem. Byte counts are
 * bytes, times are microseconds unless the name says otherwise; counters are totals since the
 * database was opened.
 *
 * @param levels per-level shape and compaction traffic, level 0 first
 * @param writes what callers wrote and what the device took for it
 * @param space the tables on disk against the live data
 * @param cache block cache counters
 * @param tableCache the tables kept (within {@link Options#tableCacheBytes()}) and their open
 *     files (within {@link Options#tableCacheFiles()}): how often a read had to open a table, and
 *     a file
 * @param stalls the writers' stalls, by cause
 * @param memtable the memtables not yet flushed
 * @param flush memtables flushed to L0
 * @param compaction compactions done and running
 * @param manifest the manifest's appends
 * @param reads point reads: where they ended, what their cache misses cost
 * @param latency latency of point reads, writes and scans
 * @param dlc the Delayed L0 Compaction scheduler's state ({@link Dlc#OFF} with the immediate
 *     scheduler)
 * @param block block compaction's counters ({@link Block#OFF} unless compactions execute as
 *     {@link dev.cairn.config.CompactionSettings.Block})
 * @param buffer the LSbM compaction buffer's state ({@link Buffer#OFF} unless compactions
 *     execute as {@link dev.cairn.config.CompactionSettings.Buffer} or a buffer an earlier BUFFER
 *     open left is still draining)
 * @param liveSnapshots open snapshots
 * @param lastSequence sequence number of the newest write
 */
public record Stats(
    List<LevelStats> levels,
    Writes writes,
    Space space,
    CacheStats cache,
    TableFiles tableCache,
    Stalls stalls,
    Memtable memtable,
    Flush flush,
    Compaction compaction,
    Manifest manifest,
    Reads reads,
    Latencies latency,
    Dlc dlc,
    Block block,
    Buffer buffer,
    int liveSnapshots,
    long lastSequence) {

  public Stats {
    levels = List.copyOf(levels);
  }

  /**
   * What callers wrote and what the device took for it.
   *
   * @param userBytesWritten key and value bytes accepted from callers (the denominator of write
   *     amplification)
   * @param walBytesWritten bytes appended to write-ahead logs
   * @param deviceBytesWritten every byte written through the filesystem layer (logs, flushes,
   *     compactions, the manifest)
   * @param amplification deviceBytesWritten / userBytesWritten (0 before any write)
   */
  public record Writes(long userBytesWritten, long walBytesWritten, long deviceBytesWritten, double amplification) {}

  /**
   * The tables on disk against the live data.
   *
   * @param amplification {@link #diskTableBytes()} (every table byte the database keeps on disk:
   *     the levels' tables with block compaction's dead bytes, the compaction buffer's files, and
   *     obsolete tables waiting for a deletion batch) / the bytes of the last non-empty level, an
   *     estimate of total-over-live in the steady state (RocksDB's definition, with everything on
   *     disk counted); 1 for an empty tree
   * @param obsoleteTableBytes obsolete tables' bytes still on disk, waiting for a deletion batch
   *     ({@link Options#obsoleteFileBatchBytes()}, block compaction's lazy deletion)
   */
  public record Space(double amplification, long obsoleteTableBytes) {}

  /**
   * @param activeBytes approximate bytes in the active memtable
   * @param immutables memtables waiting to be flushed
   */
  public record Memtable(long activeBytes, int immutables) {}

  /**
   * @param count memtables flushed
   * @param bytesWritten bytes of L0 tables written by flushes
   * @param caching whether flushes cache the blocks they write, and why
   */
  public record Flush(long count, long bytesWritten, FlushCaching caching) {}

  /**
   * Whether flushes put the blocks they write into the block cache ({@link Options#flushCaching()}).
   *
   * @param mode as configured
   * @param now whether the next flush caches its blocks
   * @param recency with {@link Options.FlushCaching#ADAPTIVE}, the evidence of the last flush
   *     that counted: L0's share of the reads answered from tables over its share of the table
   *     bytes (near 1 where reads do not favour new data); NaN otherwise or before one
   * @param switches how often the adaptive choice flipped since open
   */
  public record FlushCaching(Options.FlushCaching mode, boolean now, double recency, long switches) {
    /** A pinned mode's figures: no evidence, no switches. */
    public static FlushCaching pinned(Options.FlushCaching mode) {
      return new FlushCaching(mode, mode == Options.FlushCaching.ALWAYS, Double.NaN, 0);
    }
  }

  /**
   * @param completed compactions completed (trivial moves included)
   * @param trivialMoves compactions that only moved a file down
   * @param levelMoves two-phase rounds ended: a level's insertion part moved, whole and unchanged,
   *     to its deletion part ({@link dev.cairn.config.CompactionSettings.TwoPhase}; 0 otherwise)
   * @param idleDrains times aggressive compaction began draining the upper levels because writes
   *     had stopped ({@link dev.cairn.config.CompactionSettings#idleDrainMillis()})
   * @param micros wall time spent in compactions
   * @param running compactions running now (flushes not included; a pending look for tables under
   *     range tombstones counts as one)
   * @param bytesRead bytes read by compactions, all levels
   * @param bytesWritten bytes of tables written by compactions, all levels
   * @param filterRemoved values the user's {@link CompactionFilter} removed, in installed compactions
   * @param filterChanged values it changed, in installed compactions
   * @param filterDiscarded compactions discarded and run again because a snapshot taken while they
   *     ran could see a value the filter changed
   * @param mergedOperands merge operands merged into a value or combined with another operand, in
   *     installed compactions ({@link MergeOperator})
   * @param deletedTables tables deleted whole, unread and unrewritten, because each lay under a
   *     newer range tombstone every reader of it sees ({@link Cairn#deleteRange}); counted in
   *     {@code completed} as one compaction per level
   * @param deletedBytes the bytes of those tables
   */
  public record Compaction(long completed, long trivialMoves, long levelMoves, long idleDrains, long micros,
      int running, long bytesRead, long bytesWritten, long filterRemoved, long filterChanged, long filterDiscarded,
      long mergedOperands, long deletedTables, long deletedBytes) {}

  /**
   * @param bytesWritten bytes appended to manifests
   * @param syncs manifest records flushes, compactions and the buffer's passes appended and synced
   *     since open, each with the engine mutex released (reads and writes go on meanwhile)
   * @param syncMicros the time those appends and syncs took
   */
  public record Manifest(long bytesWritten, long syncs, long syncMicros) {}

  /**
   * @param userBytesRead bytes read from tables for user reads (cache misses)
   * @param byLevel where point reads ended and the data blocks they read from the device, by
   *     level, L0 first (empty when not counted)
   * @param missMicros the mean time of those block reads since open, read and verified: what a
   *     block cache miss has cost the point reads (NaN before any), whatever the compaction style
   */
  public record Reads(long userBytesRead, List<LevelReads> byLevel, double missMicros) {
    public Reads {
      byLevel = List.copyOf(byLevel);
    }

    /** Data blocks the point reads read from the device, all levels. */
    public long blockReads() {
      return byLevel.stream().mapToLong(LevelReads::blockReads).sum();
    }
  }

  /** Latency of point reads ({@code get}), writes ({@code put}: puts, deletes and batches) and {@link Cairn#scan}. */
  public record Latencies(Latency get, Latency put, Latency scan) {}

  /**
   * The writers' stalls by cause, times in microseconds: groups that slept to keep the pace L0's
   * slowdown trigger sets ({@link Options#delayedWriteBytesPerSecond()}), waits with L0 at its
   * stop trigger, and waits for a memtable while {@link Options#maxImmutableMemtables()} wait for
   * their flush.
   */
  public record Stalls(long slowdownMicros, long slowdowns, long l0StopMicros, long l0Stops, long memtableStopMicros,
      long memtableStops) {
    public static final Stalls NONE = new Stalls(0, 0, 0, 0, 0, 0);

    /** Time writers spent delayed or stopped, every cause. */
    public long totalMicros() {
      return slowdownMicros + l0StopMicros + memtableStopMicros;
    }

    /** Times a writer waited for a flush or for L0 to drain. */
    public long stops() {
      return l0Stops + memtableStops;
    }
  }

  /**
   * One level.
   *
   * @param score compaction score: above 1 means the picker wants to compact this level
   * @param bytesRead compaction bytes read for output into this level
   * @param bytesWritten compaction (or, for L0, flush) bytes written into this level
   * @param deadBytes bytes of the level's files no footer references any more (block compaction
   *     garbage: {@code totalBytes - validBytes}); {@link #bytes} includes them
   * @param rawDataBytesWritten data block bytes written into this level since open, as built
   * @param storedDataBytesWritten the same as stored: less where they were compressed
   * @param readCalls the read calls that read {@code bytesRead}: one per block or read-ahead span
   *     (a merge reading scattered blocks makes many calls for its bytes)
   */
  public record LevelStats(int level, int files, long bytes, double score, long bytesRead, long bytesWritten,
      long deadBytes, long rawDataBytesWritten, long storedDataBytesWritten, long readCalls) {
    public LevelStats(int level, int files, long bytes, double score, long bytesRead, long bytesWritten) {
      this(level, files, bytes, score, bytesRead, bytesWritten, 0, 0, 0, 0);
    }

    public LevelStats(int level, int files, long bytes, double score, long bytesRead, long bytesWritten,
        long deadBytes) {
      this(level, files, bytes, score, bytesRead, bytesWritten, deadBytes, 0, 0, 0);
    }

    /** Stored over raw bytes of the data blocks written into this level since open; 1 where none was. */
    public double compressionRatio() {
      return rawDataBytesWritten == 0 ? 1.0 : (double) storedDataBytesWritten / rawDataBytesWritten;
    }
  }

  /**
   * Block compaction ({@code CompactionSettings.Block}) figures.
   *
   * @param appendedTables target tables compacted by appending (block compaction)
   * @param rewrittenTables target tables the selective rule sent to table compaction
   * @param dirtyBlocks blocks merged and appended over
   * @param appendedBytes bytes appended to existing tables
   * @param filterRebuilds appends that rebuilt the filter because the reserve was used up
   * @param choices the selective rule's decisions since open, by output level and rule, in level
   *     order: which targets were appended to, which rewritten and why
   */
  public record Block(boolean enabled, long appendedTables, long rewrittenTables, long dirtyBlocks,
      long appendedBytes, long filterRebuilds, List<Choices> choices) {
    public static final Block OFF = new Block(false, 0, 0, 0, 0, 0, List.of());

    public Block {
      choices = List.copyOf(choices);
    }
  }

  /**
   * The targets of block merges into one level that one rule of the selective rule decided.
   *
   * @param level the output level
   * @param lastLevel whether these merges took the last level's thresholds
   *     ({@code BlockCompactionConfig.intoLastLevel})
   * @param reason the rule that decided ({@code TargetChoice.Reason}'s name)
   * @param appended whether that rule appends (block compaction) rather than rewrites
   * @param tables targets decided so
   * @param targetBytes their file bytes when decided, garbage included
   * @param dataBlocks their data blocks when decided
   * @param dirtyBlocks of those, the blocks incoming keys fell into
   */
  public record Choices(int level, boolean lastLevel, String reason, boolean appended, long tables,
      long targetBytes, long dataBlocks, long dirtyBlocks) {
    /** Dirty blocks over data blocks: the share an append would rewrite. */
    public double dirtyRatio() {
      return dataBlocks == 0 ? 0 : (double) dirtyBlocks / dataBlocks;
    }
  }

  /** Latency percentiles in microseconds over every operation since open. */
  public record Latency(long count, double p50Micros, double p99Micros, double maxMicros) {}

  /**
   * The table cache: the tables kept, each with its index and filter decoded on the heap, and
   * their open files.
   *
   * @param capacity most table files open at once ({@link Options#tableCacheFiles()}, or with
   *     shared bounds the shared one over every database)
   * @param open tables open (decoded) now, including evicted ones a read still holds
   * @param opens tables opened since open (each reads a footer, an index and a filter); many
   *     more opens than files means the tree has more tables than the byte bound keeps
   * @param byteCapacity most bytes of index and filter the kept tables may pin ({@link
   *     Options#tableCacheBytes()}, or the shared bound); 0: no byte bound, {@code capacity}
   *     bounds the tables kept
   * @param pinnedBytes bytes of index and filter this database's kept tables pin now (estimated)
   * @param sharedBounds whether the bounds are shared with other databases ({@link
   *     SharedResources}, or the process's when both options are left unset): {@code capacity}
   *     and {@code byteCapacity} then bound {@code boundTables}, {@code boundPinnedBytes} and
   *     {@code openFiles}, not this database's figures alone
   * @param boundTables tables kept now by every database the bounds hold (this one's when its own)
   * @param boundPinnedBytes bytes of index and filter those tables pin now
   * @param openFiles table files open now, over every database the bounds hold
   * @param fileReopens table files opened again after the open-file bound closed them (their
   *     tables kept), over every database the bounds hold
   */
  public record TableFiles(int capacity, int open, long opens, long byteCapacity, long pinnedBytes,
      boolean sharedBounds, int boundTables, long boundPinnedBytes, int openFiles, long fileReopens) {}

  /**
   * Delayed L0 Compaction (docs/dlc.md), as of the load model's last interval.
   *
   * @param enabled whether the DLC scheduler runs; all other fields are zero when not
   * @param load the current load class (null when not enabled)
   * @param clientBytesPerSecond the client's estimated device bandwidth (Eq. 6 or Eq. 3)
   * @param limiterBytesPerSecond the compaction rate limit now in force (Eq. 2, floored)
   * @param delayedL0Compactions times a due L0 compaction was held back (once per L0 shape)
   * @param partRuns bursty "resume part" (L0 to L0) compactions started
   * @param fullRuns bursty "resume full" (all of L0 to L1) compactions started
   * @param l0Files tables in L0 now
   * @param l0Bytes bytes in L0 now
   */
  public record Dlc(boolean enabled, LoadClass load, double clientBytesPerSecond,
      double limiterBytesPerSecond, long delayedL0Compactions, long partRuns, long fullRuns, int l0Files,
      long l0Bytes) {
    public static final Dlc OFF = new Dlc(false, null, 0, 0, 0, 0, 0, 0, 0);
  }

  /**
   * The LSbM compaction buffer (docs/compaction.md, "Compaction buffer"), as of this snapshot.
   *
   * @param enabled whether the compaction style is BUFFER; all other fields are zero when not
   * @param bytes disk space of the files only the buffer still references: the buffer's extra
   *     space on top of the tree (files are counted once, and not at all while a level holds them)
   * @param files those files
   * @param runs buffer runs, all levels (not counting the runs carried buffers hold)
   * @param removedMarkers removed markers, all levels (likewise)
   * @param bytesByLevel {@code bytes} split by the level whose buffer holds the file, L0 first
   * @param appendedFiles files appended by buffered merges since open
   * @param coldArrivalsLeftOut merge inputs and targets with no warm block that a buffered merge
   *     did not append since open ({@code BufferConfig.keepColdArrivals})
   * @param trimmedFiles cold block runs (trim units, docs/compaction.md "Trim units") the trim turned into removed markers since open
   * @param shadowedFiles files dropped because markers of newer runs hid them (the buffer
   *     shrinking as its level's data merges down) since open
   * @param evictedFiles buffer entries dropped at install to keep the buffer within its space
   *     bound ({@code BufferConfig.maxSpaceFraction}) since open
   * @param rewrittenFiles files rewritten as their parts' blocks alone (part compaction,
   *     {@code BufferConfig.partRewriteFraction}) since open
   * @param rewrittenBytes disk space those rewrites freed (old file sizes minus new ones)
   * @param trimPasses trim passes run since open
   * @param freezes times a level's buffer froze on repeated data since open
   * @param frozenLevels levels whose buffer is frozen now
   * @param servedGets point reads a buffer file answered since open (the rest of the reads of
   *     a level with a buffer fell back to the level's own file)
   * @param scannedFromBuffer level files whose range an iterator read from the buffer files a
   *     merge made them of, instead of the file itself, since open ({@code
   *     BufferConfig.scansThroughBuffer}; docs/compaction.md "Range queries through the buffer")
   * @param readsByLevel how the point reads of each level's buffer ended since open, L0 first
   * @param missCostMicros what a point read's block cache miss costs, as the buffer estimates it
   *     from the reads it timed (docs/compaction.md, "What a miss costs"); NaN before any
   * @param boundFraction the space bound that cost gives: the buffer's extra space at most this
   *     fraction of the levels' bytes ({@code BufferConfig.maxSpaceFraction} scaled by the cost)
   */
  public record Buffer(boolean enabled, long bytes, int files, int runs, int removedMarkers,
      List<Long> bytesByLevel, long appendedFiles, long coldArrivalsLeftOut, long trimmedFiles, long shadowedFiles,
      long evictedFiles, long rewrittenFiles, long rewrittenBytes, long trimPasses,
      long freezes, List<Integer> frozenLevels, long servedGets, long scannedFromBuffer,
      List<BufferLevelReads> readsByLevel, double missCostMicros, double boundFraction) {
    public static final Buffer OFF = new Buffer(false, 0, 0, 0, 0, List.of(), 0, 0, 0, 0, 0, 0, 0, 0, 0, List.of(), 0, 0,
        List.of(), Double.NaN, 0);

    public Buffer {
      bytesByLevel = List.copyOf(bytesByLevel);
      frozenLevels = List.copyOf(frozenLevels);
      readsByLevel = List.copyOf(readsByLevel);
    }
  }

  /**
   * The point reads of one level whose key the level's file may hold (its filter passed) and
   * whose buffer was walked: answered by a buffer file, stopped at a removed marker, or through
   * the whole buffer with no answer. The last two read the level's own file, where a recent
   * compaction's output is cold.
   */
  public record BufferLevelReads(long served, long stoppedAtMarker, long fellThrough) {}

  /**
   * The point reads that reached one level's tables since open (their key inside a file's range).
   *
   * @param answered reads the level answered with a value or a deletion, from its own files or
   *     its compaction buffer's
   * @param blockReads data blocks these reads read from the device at this level (block cache
   *     misses), whether the level answered or the read went on
   * @param bufferBlockReads of {@code blockReads}, those of the level's compaction buffer files
   */
  public record LevelReads(long answered, long blockReads, long bufferBlockReads) {}

  /** Bytes of the levels' tables on disk (block compaction's dead bytes included). */
  public long totalTableBytes() {
    return levels.stream().mapToLong(LevelStats::bytes).sum();
  }

  /**
   * Every table byte the database keeps on disk: the levels' files, the compaction buffer's files
   * that the levels no longer hold, and obsolete tables waiting for a deletion batch.
   */
  public long diskTableBytes() {
    return totalTableBytes() + (buffer == null ? 0 : buffer.bytes()) + space.obsoleteTableBytes();
  }

  public int totalFiles() {
    return levels.stream().mapToInt(LevelStats::files).sum();
  }

  /** A fixed-layout table for humans and golden tests. */
  @Override
  public String toString() {
    return StatsText.render(this);
  }
}
