package dev.cairn.cassandra.warm;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;
import org.apache.cassandra.cache.AutoSavingCache;
import org.apache.cassandra.cache.ChunkCache;
import org.apache.cassandra.cache.KeyCacheKey;
import org.apache.cassandra.config.DatabaseDescriptor;
import org.apache.cassandra.io.sstable.AbstractRowIndexEntry;
import org.apache.cassandra.io.sstable.Descriptor;
import org.apache.cassandra.io.sstable.format.SSTableReader;
import org.apache.cassandra.io.util.DiskOptimizationStrategy;
import org.apache.cassandra.io.util.RandomAccessReader;
import org.apache.cassandra.metrics.RestorableMeter;
import org.apache.cassandra.service.CacheService;
import org.apache.cassandra.utils.concurrent.Ref;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads the chunks of a compaction's output that hold recently read partitions into Cassandra's
 * chunk cache, as the output goes live, so that the reads moving to it find their chunks cached.
 *
 * <p><b>When.</b> The strategy calls {@link #afterReplacement} from {@code replaceSSTables},
 * which Cassandra calls on the compacting thread once the compaction has committed: the output is
 * live and the inputs are leaving. The chunks are read on one warming thread per node, holding a
 * reference to each output so that none is deleted under it; the compacting thread only queues.
 * Reads that reach an output before its warming has read their chunk miss as they would without
 * warming (Cassandra 5.0.9 has no hook between an output being finished and going live:
 * docs/adapters/cassandra.md).
 *
 * <p><b>Which chunks.</b> Cassandra's key cache is the record of what was read: a point read
 * caches its partition's index entry, and a compaction carries the entries of its inputs' cached
 * partitions over to the output ({@code key_cache_migrate_during_compaction}, on by default), so
 * the output's entries give the data positions of its read partitions. The key cache holds far
 * more partitions than the chunk cache holds chunks, and most of them are not hot; so only the
 * node's hottest entries by the key cache's own ranking count, as many as the chunk cache holds
 * chunks: the partitions whose chunks a cache of its size would keep. {@link WarmPlanner} turns
 * them into chunks, hottest first, within the budget. Cassandra does not expose which chunks are
 * cached, so this stands in for "its input chunk was cached".
 *
 * <p><b>How.</b> Through the output's own data file handle: a chunk read through it is keyed as
 * the readers' lookups are. Warming needs the output to have no early-opened reader: closing one
 * drops every chunk of its file from the cache, warmed ones included ({@code FileHandle.Cleanup}),
 * so the strategies open no output early while warming is on ({@code supportsEarlyOpen}).
 *
 * <p>Thread-safety: {@link #afterReplacement} and {@link #sampleReads} may be called from any
 * thread; the counters are atomic.
 */
public final class OutputWarmer {
  private static final Logger logger = LoggerFactory.getLogger(OutputWarmer.class);

  /** Warmed outputs whose read meters are followed; older ones are let go. */
  private static final int FOLLOWED_OUTPUTS = 1024;

  /** Bytes every table's warming has read on this node: device reads that are no client's. */
  private static final AtomicLong NODE_BYTES_WARMED = new AtomicLong();

  /** One thread per node; a compaction that finds 16 warmings queued is not warmed. */
  private static final ThreadPoolExecutor WARMING = warmingThread();

  private final String table;
  private final boolean warmOutput;
  private final long budgetBytes;
  private final BooleanSupplier highLoad;

  private final AtomicLong warmedCompactions = new AtomicLong();
  private final AtomicLong chunks = new AtomicLong();
  private final AtomicLong bytes = new AtomicLong();
  private final AtomicLong nanos = new AtomicLong();
  private final AtomicLong skipped = new AtomicLong();
  private final AtomicLong leftOutBytes = new AtomicLong();
  private final AtomicLong warmedOutputReads = new AtomicLong();
  private volatile String last = WarmFigures.NONE.last();

  // Guarded by followed: warmed outputs and the read count last seen on each.
  private final Map<SSTableReader, Long> followed = new LinkedHashMap<>();

  /**
   * @param table {@code keyspace.table}, for the log
   * @param highLoad whether the table's load is high now (warming then waits for the next compaction)
   */
  public OutputWarmer(String table, boolean warmOutput, long budgetBytes, BooleanSupplier highLoad) {
    this.table = table;
    this.warmOutput = warmOutput;
    this.budgetBytes = budgetBytes;
    this.highLoad = highLoad;
  }

  /**
   * Bytes all tables' warming has read on this node so far; the load model takes them from the
   * chunk-cache misses as it takes compactions' reads.
   */
  public static long nodeBytesWarmed() {
    return NODE_BYTES_WARMED.get();
  }

  /** Whether outputs may be opened early: not while warming, whose chunks an early reader's close would drop. */
  public boolean allowsEarlyOpen() {
    return !warmOutput;
  }

  /** A replacement of {@code removed} by {@code added} committed: queues the warming of {@code added}. */
  public void afterReplacement(Collection<SSTableReader> removed, Collection<SSTableReader> added) {
    if (removed.isEmpty() || added.isEmpty()) {
      return; // a flush, a stream or a drop: nothing was read from these yet
    }
    // Checked here too, so that a closed gate costs the compacting thread no references.
    WarmPlanner.Skip closed = WarmPlanner.gate(gates(), chunkCacheBytes());
    if (closed != WarmPlanner.Skip.NONE) {
      skip(closed.name());
      return;
    }
    List<Ref<SSTableReader>> refs = new ArrayList<>();
    for (SSTableReader output : added) {
      Ref<SSTableReader> ref = output.tryRef();
      if (ref != null) {
        refs.add(ref);
      }
    }
    try {
      WARMING.execute(() -> warm(refs));
    } catch (RejectedExecutionException e) {
      refs.forEach(Ref::release);
      skip("QUEUE_FULL");
    }
  }

  /** Counts the reads of warmed outputs since the last sample (call it every load interval). */
  public void sampleReads() {
    synchronized (followed) {
      Iterator<Map.Entry<SSTableReader, Long>> it = followed.entrySet().iterator();
      while (it.hasNext()) {
        Map.Entry<SSTableReader, Long> e = it.next();
        RestorableMeter meter = e.getKey().getReadMeter();
        long count = meter == null ? e.getValue() : meter.count();
        warmedOutputReads.addAndGet(count - e.getValue());
        e.setValue(count);
        if (e.getKey().isMarkedCompacted()) {
          it.remove();
        }
      }
    }
  }

  public WarmFigures figures() {
    return new WarmFigures(warmedCompactions.get(), chunks.get(), bytes.get(), nanos.get() / 1_000_000,
        skipped.get(), leftOutBytes.get(), warmedOutputReads.get(), last);
  }

  private void skip(String why) {
    skipped.incrementAndGet();
    last = "skipped: " + why;
  }

  private void warm(List<Ref<SSTableReader>> refs) {
    try {
      List<SSTableReader> outputs = new ArrayList<>();
      refs.forEach(r -> outputs.add(r.get()));
      List<WarmPlanner.Output> shapes = new ArrayList<>();
      int smallestChunk = Integer.MAX_VALUE;
      for (SSTableReader output : outputs) {
        int chunk = chunkBytes(output);
        smallestChunk = Math.min(smallestChunk, chunk);
        shapes.add(new WarmPlanner.Output(output.getFilename(), chunk, output.uncompressedLength()));
      }
      long cacheBytes = chunkCacheBytes();
      // As many of the node's hottest partitions as the chunk cache holds chunks: those whose
      // chunks a cache of its size keeps.
      int candidates = (int) Math.min(Integer.MAX_VALUE, Math.max(1, cacheBytes / smallestChunk));
      List<WarmPlanner.HotPartition> hot = hottestPartitions(outputs, candidates);
      // The load is asked again: the warming may have waited in the queue.
      WarmPlanner.Plan plan = WarmPlanner.plan(shapes, hot, gates(), budgetBytes, cacheBytes);
      if (plan.skip() != WarmPlanner.Skip.NONE) {
        skip(plan.skip().name());
        return;
      }
      Map<String, SSTableReader> byName = new HashMap<>();
      outputs.forEach(o -> byName.put(o.getFilename(), o));
      long start = System.nanoTime();
      for (WarmPlanner.Chunks c : plan.chunks()) {
        read(byName.get(c.name()), c);
        NODE_BYTES_WARMED.addAndGet(c.bytes());
      }
      long took = System.nanoTime() - start;
      warmedCompactions.incrementAndGet();
      chunks.addAndGet(plan.chunkCount());
      bytes.addAndGet(plan.bytes());
      nanos.addAndGet(took);
      leftOutBytes.addAndGet(plan.leftOutBytes());
      last = String.format(Locale.ROOT, "warmed %d chunks (%.1f MiB) of %d outputs in %d ms%s",
          plan.chunkCount(), plan.bytes() / 1048576.0, outputs.size(), took / 1_000_000,
          plan.leftOutBytes() > 0 ? String.format(Locale.ROOT, ", %.1f MiB over budget left out",
              plan.leftOutBytes() / 1048576.0) : "");
      logger.debug("{}: {}", table, last);
      follow(outputs);
    } catch (RuntimeException e) {
      // Warming is an optimisation: a failure costs later reads a miss, never the compaction.
      skip("FAILED (" + e + ")");
      logger.warn("{}: warming a compaction's output failed", table, e);
    } finally {
      refs.forEach(Ref::release);
    }
  }

  /** Reads one byte of each chunk through the output's data file handle, which loads the chunk into the cache. */
  private static void read(SSTableReader output, WarmPlanner.Chunks chunks) {
    try (RandomAccessReader in = output.openDataReader()) {
      for (long start : chunks.starts()) {
        in.seek(start);
        in.readByte();
      }
    } catch (IOException e) {
      throw new UncheckedIOException(chunks.name(), e);
    }
  }

  private void follow(List<SSTableReader> outputs) {
    synchronized (followed) {
      for (SSTableReader output : outputs) {
        RestorableMeter meter = output.getReadMeter();
        long seen = meter == null ? 0 : meter.count();
        warmedOutputReads.addAndGet(seen);
        followed.put(output, seen);
      }
      Iterator<SSTableReader> oldest = followed.keySet().iterator();
      while (followed.size() > FOLLOWED_OUTPUTS) {
        oldest.next();
        oldest.remove();
      }
    }
  }

  /**
   * The outputs' partitions among the node's {@code candidates} hottest key-cache entries (the
   * key cache's own ranking, by its eviction policy), the hottest first.
   */
  private static List<WarmPlanner.HotPartition> hottestPartitions(List<SSTableReader> outputs, int candidates) {
    Map<Descriptor, Integer> index = new HashMap<>();
    for (int i = 0; i < outputs.size(); i++) {
      index.put(outputs.get(i).descriptor, i);
    }
    List<WarmPlanner.HotPartition> hot = new ArrayList<>();
    AutoSavingCache<KeyCacheKey, AbstractRowIndexEntry> keyCache = CacheService.instance.keyCache;
    Iterator<KeyCacheKey> keys = keyCache.hotKeyIterator(candidates);
    while (keys.hasNext()) {
      KeyCacheKey key = keys.next();
      Integer output = index.get(key.desc);
      if (output != null) {
        AbstractRowIndexEntry entry = keyCache.getInternal(key);
        if (entry != null) {
          hot.add(new WarmPlanner.HotPartition(output, entry.position));
        }
      }
    }
    return hot;
  }

  /**
   * The chunk the chunk cache keeps of this data file: the compression chunk, or, uncompressed,
   * the read buffer Cassandra sizes from the partitions' sizes, rounded as the cache rounds it.
   */
  static int chunkBytes(SSTableReader output) {
    if (output.compression) {
      return output.getCompressionMetadata().chunkLength();
    }
    int buffer = DatabaseDescriptor.getDiskOptimizationStrategy().bufferSize(
        output.getEstimatedPartitionSize().percentile(DatabaseDescriptor.getDiskOptimizationEstimatePercentile()));
    return DiskOptimizationStrategy.roundForCaching(buffer, ChunkCache.roundUp);
  }

  private WarmPlanner.Gates gates() {
    return new WarmPlanner.Gates(warmOutput, ChunkCache.instance != null, highLoad.getAsBoolean());
  }

  private static long chunkCacheBytes() {
    return ChunkCache.instance == null ? 0 : ChunkCache.instance.capacity();
  }

  private static ThreadPoolExecutor warmingThread() {
    ThreadPoolExecutor executor = new ThreadPoolExecutor(1, 1, 60, TimeUnit.SECONDS, new ArrayBlockingQueue<>(16),
        r -> {
          Thread t = new Thread(r, "cairn-output-warming");
          t.setDaemon(true);
          return t;
        });
    executor.allowCoreThreadTimeOut(true);
    return executor;
  }
}
