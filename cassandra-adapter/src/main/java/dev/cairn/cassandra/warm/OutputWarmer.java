package dev.cairn.cassandra.warm;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;
import org.apache.cassandra.cache.AutoSavingCache;
import org.apache.cassandra.cache.ChunkCache;
import org.apache.cassandra.cache.KeyCacheKey;
import org.apache.cassandra.config.Config;
import org.apache.cassandra.config.DatabaseDescriptor;
import org.apache.cassandra.db.ColumnFamilyStore;
import org.apache.cassandra.db.DecoratedKey;
import org.apache.cassandra.io.sstable.AbstractRowIndexEntry;
import org.apache.cassandra.io.sstable.Descriptor;
import org.apache.cassandra.io.sstable.format.SSTableReader;
import org.apache.cassandra.io.util.DiskOptimizationStrategy;
import org.apache.cassandra.io.util.RandomAccessReader;
import org.apache.cassandra.metrics.RestorableMeter;
import org.apache.cassandra.service.CacheService;
import org.apache.cassandra.utils.JVMStabilityInspector;
import org.apache.cassandra.utils.concurrent.Ref;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads the chunks of a compaction's output that hold hot partitions into Cassandra's chunk cache
 * as the output goes live, so that the reads moving to it find their chunks cached.
 *
 * <p><b>When.</b> The strategy calls {@link #afterReplacement} from {@code replaceSSTables},
 * which Cassandra calls on the compacting thread once the compaction has committed: the output is
 * live and the inputs are leaving. The chunks are read on one warming thread per node, holding a
 * reference to each output so that none is deleted under it; the compacting thread only queues,
 * and nothing warming does can fail the compaction. Reads that reach an output before its warming
 * has read their chunk miss as they would without warming (Cassandra 5.0.9 has no hook between an
 * output being finished and going live: docs/adapters/cassandra.md).
 *
 * <p><b>Which chunks.</b> Cassandra's key cache is the record of what was read: a point read
 * caches its partition's index entry (keyed by SSTable and partition), and a compaction copies the
 * entries of its inputs' cached partitions to the output ({@code
 * key_cache_migrate_during_compaction}, on by default) as new entries. The key cache ranks its
 * entries by its eviction policy, the recently used first; the copies, just made, carry no heat,
 * so the heat is read from the inputs' entries: of the node's hottest entries, as many as the
 * chunk cache holds chunks (the outputs' copies not counted), those that belong to the
 * compaction's inputs, each found again in the output that now holds its partition, whose copied
 * entry gives the data position. {@link WarmPlanner} turns them into chunks, hottest
 * first, within the budget. Cassandra does not expose which chunks are cached, so this stands in
 * for "its input chunk was cached".
 *
 * <p><b>How.</b> Through the output's own data file handle: a chunk read through it is keyed as
 * the readers' lookups are. Warming needs the output to have no early-opened reader: closing one
 * drops every chunk of its file from the cache, warmed ones included ({@code FileHandle.Cleanup}),
 * so the strategies open no output early while warming can happen ({@link #allowsEarlyOpen}).
 *
 * <p>Thread-safety: {@link #afterReplacement} and {@link #sampleReads} may be called from any
 * thread; the counters are atomic.
 */
public final class OutputWarmer {
  private static final Logger logger = LoggerFactory.getLogger(OutputWarmer.class);

  /** Warmed outputs whose read meters are followed; older ones are let go. */
  private static final int FOLLOWED_OUTPUTS = 256;

  /** The most key-cache entries one warming ranks. */
  private static final int MAX_CANDIDATES = 65_536;

  /** The most key-cache entries one warming looks at (the key cache copies them under its eviction lock). */
  private static final int MAX_SCANNED = 4 * MAX_CANDIDATES;

  /** Bytes every table's warming has read on this node: device reads that are no client's. */
  private static final AtomicLong NODE_BYTES_WARMED = new AtomicLong();

  /** One thread per node; a compaction that finds 16 warmings queued is not warmed. */
  private static final ThreadPoolExecutor WARMING = warmingThread();

  private final ColumnFamilyStore cfs;
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

  /** A warmed output's read meter and the count last seen on it. */
  private static final class Followed {
    final RestorableMeter meter;
    long seen;

    Followed(RestorableMeter meter, long seen) {
      this.meter = meter;
      this.seen = seen;
    }
  }

  // Guarded by followed; in warming order, the oldest first.
  private final Map<Descriptor, Followed> followed = new LinkedHashMap<>();

  /**
   * @param warmOutput the table's {@code warm_output}
   * @param highLoad whether the table's load is high now (warming then waits for the next compaction)
   */
  public OutputWarmer(ColumnFamilyStore cfs, boolean warmOutput, long budgetBytes, BooleanSupplier highLoad) {
    this.cfs = cfs;
    this.table = cfs.getKeyspaceName() + "." + cfs.getTableName();
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

  /**
   * Whether outputs may be opened early: not where warming can happen, whose chunks an early
   * reader's close would drop. Where the chunk cache does not serve the table's data (no chunk
   * cache, or uncompressed data read through mmap), nothing is warmed and early open stays.
   */
  public boolean allowsEarlyOpen() {
    return !(warmOutput && chunkCacheServesData());
  }

  /** A replacement of {@code removed} by {@code added} committed: queues the warming of {@code added}. */
  public void afterReplacement(Collection<SSTableReader> removed, Collection<SSTableReader> added) {
    if (removed.isEmpty() || added.isEmpty()) {
      return; // a flush, a stream or a drop: nothing was read from these yet
    }
    try {
      // Checked here too, so that a closed gate costs the compacting thread no references.
      WarmPlanner.Skip closed = WarmPlanner.gate(gates(), chunkCacheBytes());
      if (closed != WarmPlanner.Skip.NONE) {
        skip(closed.name());
        return;
      }
      Set<Descriptor> inputs = new HashSet<>();
      removed.forEach(r -> inputs.add(r.descriptor));
      List<Ref<SSTableReader>> refs = new ArrayList<>();
      for (SSTableReader output : added) {
        Ref<SSTableReader> ref = output.tryRef();
        if (ref != null) {
          refs.add(ref);
        }
      }
      try {
        WARMING.execute(() -> warm(inputs, refs));
      } catch (RejectedExecutionException e) {
        refs.forEach(Ref::release);
        skip(WarmPlanner.Skip.QUEUE_FULL.name());
      }
    } catch (Throwable t) {
      // This runs inside Cassandra's commit of the compaction: nothing may escape into it.
      JVMStabilityInspector.inspectThrowable(t);
      skip(WarmPlanner.Skip.FAILED.name() + " (" + t + ")");
      logger.warn("{}: could not queue the warming of a compaction's output", table, t);
    }
  }

  /** Counts the reads of warmed outputs since the last sample (call it every load interval). */
  public void sampleReads() {
    synchronized (followed) {
      for (Followed f : followed.values()) {
        long count = f.meter.count();
        warmedOutputReads.addAndGet(count - f.seen);
        f.seen = count;
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

  private void warm(Set<Descriptor> inputs, List<Ref<SSTableReader>> refs) {
    try {
      List<SSTableReader> outputs = new ArrayList<>();
      refs.forEach(r -> outputs.add(r.get()));
      outputs.sort(Comparator.comparing(SSTableReader::getFirst));
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
      int candidates = (int) Math.min(MAX_CANDIDATES, Math.max(1, cacheBytes / smallestChunk));
      List<WarmPlanner.HotPartition> hot = hottestPartitions(inputs, outputs, candidates);
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
    } catch (Throwable t) {
      // Warming is an optimisation: a failure costs later reads a miss, never the compaction. A
      // disk error still reaches Cassandra's disk failure policy.
      JVMStabilityInspector.inspectThrowable(t);
      skip(WarmPlanner.Skip.FAILED.name() + " (" + t + ")");
      logger.warn("{}: warming a compaction's output failed", table, t);
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
        if (meter != null) {
          long seen = meter.count();
          warmedOutputReads.addAndGet(seen);
          followed.put(output.descriptor, new Followed(meter, seen));
        }
      }
      Iterator<Descriptor> oldest = followed.keySet().iterator();
      while (followed.size() > FOLLOWED_OUTPUTS) {
        oldest.next();
        oldest.remove();
      }
    }
  }

  /**
   * The partitions of the node's {@code candidates} hottest key-cache entries (the key cache's own
   * ranking, which puts the recently used first) that belong to the compaction's inputs, each at
   * its position in the output that now holds it (the entry the compaction copied there), the
   * hottest first. The outputs' own entries are passed over uncounted: the compaction has just
   * put them all at the top.
   *
   * @param outputs sorted by first key; they do not overlap
   */
  private static List<WarmPlanner.HotPartition> hottestPartitions(Set<Descriptor> inputs,
      List<SSTableReader> outputs, int candidates) {
    Set<Descriptor> outputDescriptors = new HashSet<>();
    outputs.forEach(o -> outputDescriptors.add(o.descriptor));
    AutoSavingCache<KeyCacheKey, AbstractRowIndexEntry> keyCache = CacheService.instance.keyCache;
    int scanned = (int) Math.min(MAX_SCANNED, Math.max(candidates, (long) keyCache.size()));
    List<WarmPlanner.HotPartition> hot = new ArrayList<>();
    Iterator<KeyCacheKey> keys = keyCache.hotKeyIterator(scanned);
    int ranked = 0;
    while (keys.hasNext() && ranked < candidates) {
      KeyCacheKey key = keys.next();
      if (outputDescriptors.contains(key.desc)) {
        continue;
      }
      ranked++;
      if (!inputs.contains(key.desc)) {
        continue;
      }
      int output = outputHolding(outputs, outputs.get(0).getPartitioner().decorateKey(ByteBuffer.wrap(key.key)));
      if (output < 0) {
        continue; // dropped by the compaction (expired, or deleted and purged)
      }
      SSTableReader holder = outputs.get(output);
      AbstractRowIndexEntry entry = keyCache.getInternal(
          new KeyCacheKey(holder.metadata(), holder.descriptor, ByteBuffer.wrap(key.key)));
      if (entry != null) {
        hot.add(new WarmPlanner.HotPartition(output, entry.position));
      }
    }
    return hot;
  }

  /** The index of the output whose key range holds {@code key}, or -1. */
  static int outputHolding(List<SSTableReader> outputs, DecoratedKey key) {
    int lo = 0;
    int hi = outputs.size() - 1;
    while (lo <= hi) {
      int mid = (lo + hi) >>> 1;
      SSTableReader o = outputs.get(mid);
      if (key.compareTo(o.getFirst()) < 0) {
        hi = mid - 1;
      } else if (key.compareTo(o.getLast()) > 0) {
        lo = mid + 1;
      } else {
        return mid;
      }
    }
    return -1;
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

  /**
   * Whether the table's data files are read through the chunk cache: it exists, and the data is
   * compressed or not memory-mapped ({@code FileHandle.Builder} caches every other kind).
   */
  private boolean chunkCacheServesData() {
    return ChunkCache.instance != null && (cfs.metadata().params.compression.isEnabled()
        || DatabaseDescriptor.getDiskAccessMode() != Config.DiskAccessMode.mmap);
  }

  private WarmPlanner.Gates gates() {
    return new WarmPlanner.Gates(warmOutput, chunkCacheServesData(), highLoad.getAsBoolean());
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
