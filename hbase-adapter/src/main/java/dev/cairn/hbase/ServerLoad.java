package dev.cairn.hbase;

import dev.cairn.compaction.dlc.LoadClass;
import dev.cairn.compaction.dlc.LoadCounters;
import dev.cairn.compaction.dlc.LoadEstimate;
import dev.cairn.compaction.dlc.LoadModel;
import java.util.Map;
import org.apache.hadoop.hbase.io.hfile.BlockCache;
import org.apache.hadoop.hbase.io.hfile.CacheStats;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One region server's load and cache picture, shared by the policies of all its stores: DLC's
 * load model (Eq. 6) on the block cache's misses, and the bytes each store file has in the cache.
 * A region server has one block cache; this is keyed by it, so each server of a mini cluster in
 * one JVM has its own.
 *
 * <p><b>The load signal.</b> Eq. 6 wants the blocks the clients' reads added to the cache. HBase
 * counts no inserts, but a miss of a read that caches its blocks ({@code
 * CacheStats.getMissCachingCount}) is one: compaction reads do not cache (and so do not count
 * there), prefetch and cache-on-write count no miss. Each miss is charged the cache's average
 * block size (data bytes over data blocks), so the model is fed bytes.
 *
 * <p><b>The ticker</b> ({@link ServerTicker}). Every load interval it observes the load,
 * rebuilds the per-file cached bytes when they may be needed (below), and lets every registered
 * policy react ({@link CairnCompactionPolicy#onTick}): a store whose compaction is held back asks
 * for it again when the load turns low or its delay reaches the time bound. The settings of the
 * first store to register (its load limits, interval, softness) are the server's; set them
 * site-wide.
 *
 * <p><b>The cache walk.</b> The bytes each store file has in the cache come from one walk over
 * every cached block ({@link CacheWalk}). It runs on the ticker, never in a selection, which
 * HBase makes under the store's locks; and only at a tick when the load is or was high (when the
 * policy's choices use the picture) or when the picture was read since the last walk (a metric,
 * a selection under high load): a server at low load that nobody asks about walks nothing,
 * however often it flushes.
 */
final class ServerLoad extends ServerTicker<CairnCompactionPolicy> {
  private static final Logger LOG = LoggerFactory.getLogger(ServerLoad.class);
  private static final Registry<ServerLoad> SERVERS = new Registry<>();

  private final LoadModel model;
  private volatile Map<String, Long> cachedBytesByFile = Map.of();
  /** Set when the picture is read; the next tick walks and clears it. */
  private volatile boolean pictureRead;
  private volatile LoadClass load = LoadClass.LOW;
  private long lastMisses = -1;
  private volatile long walks;
  private long missBytes;

  private ServerLoad(BlockCache cache, CairnOptions options) {
    super(SERVERS, cache, options.loadIntervalMillis(), "cairn-compaction-load");
    this.model = new LoadModel(options.dlcConfig(), 1, System::nanoTime, this::sample);
  }

  /**
   * Registers {@code policy} with the picture of the server whose block cache is {@code cache},
   * starting that picture's ticker on first use.
   */
  static ServerLoad join(BlockCache cache, CairnOptions options, CairnCompactionPolicy policy) {
    return join(SERVERS, cache, () -> new ServerLoad(cache, options), policy);
  }

  LoadClass load() {
    return load;
  }

  /** Walks of the cache so far (a metric: what the picture costs). */
  long cacheWalks() {
    return walks;
  }

  LoadEstimate estimate() {
    return model.current();
  }

  /**
   * Bytes of {@code fileName}'s blocks in the cache at the last walk: one interval old while the
   * load is high; otherwise possibly older, and the next tick walks again.
   */
  long cachedBytes(String fileName) {
    pictureRead = true;
    return cachedBytesByFile.getOrDefault(fileName, 0L);
  }

  @Override
  protected void tick() {
    LoadClass before = load;
    LoadEstimate estimate = model.tick();
    load = estimate.load();
    if (load != before) {
      LOG.debug("cairn: server load {} -> {} (client reads {} B/s)", before, load,
          Math.round(estimate.clientBytesPerSecond()));
    }
    if (load != LoadClass.LOW || before != LoadClass.LOW || pictureRead) {
      pictureRead = false;
      cachedBytesByFile = CacheWalk.bytesByFile(cache);
      walks++;
    }
    for (CairnCompactionPolicy policy : members) {
      policy.onTick(before, load);
    }
  }

  /** Cumulative bytes the clients' reads brought into the cache (see the class comment). */
  private synchronized LoadCounters.Sample sample() {
    CacheStats stats = cache.getStats();
    long misses = stats.getMissCachingCount();
    if (lastMisses >= 0 && misses > lastMisses) {
      long blocks = cache.getDataBlockCount();
      long averageBlock = blocks > 0 ? Math.max(1, cache.getCurrentDataSize() / blocks) : 64 * 1024;
      missBytes += (misses - lastMisses) * averageBlock;
    }
    lastMisses = misses;
    return new LoadCounters.Sample(missBytes, 0, 0);
  }
}
