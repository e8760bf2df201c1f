package dev.cairn.hbase;

import java.util.Collections;
import java.util.Map;
import java.util.Set;
import java.util.WeakHashMap;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.hadoop.hbase.io.hfile.BlockCache;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One region server's trim: a daemon thread that, every trim interval, walks the block cache
 * once ({@link CacheWalk}; only when some store holds a generation) and lets every store with a
 * buffer judge its generations ({@link CairnBufferStoreEngine#trimPass}). Keyed by the server's
 * block cache, so each server of a mini cluster in one JVM has its own. The first store to join
 * sets the interval; set it site-wide.
 */
final class BufferTrimmer {
  private static final Logger LOG = LoggerFactory.getLogger(BufferTrimmer.class);
  private static final Map<BlockCache, BufferTrimmer> BY_CACHE = Collections.synchronizedMap(new WeakHashMap<>());

  private final BlockCache cache;
  private final long intervalMillis;
  private final Set<CairnBufferStoreEngine> stores = ConcurrentHashMap.newKeySet();
  private final Thread thread;

  private BufferTrimmer(BlockCache cache, long intervalMillis) {
    this.cache = cache;
    this.intervalMillis = intervalMillis;
    this.thread = new Thread(this::run, "cairn-buffer-trim");
    this.thread.setDaemon(true);
  }

  /** Registers {@code store} with the trim of the server whose block cache is {@code cache}. */
  static BufferTrimmer join(BlockCache cache, long intervalMillis, CairnBufferStoreEngine store) {
    synchronized (BY_CACHE) {
      BufferTrimmer trimmer = BY_CACHE.get(cache);
      if (trimmer == null) {
        trimmer = new BufferTrimmer(cache, intervalMillis);
        BY_CACHE.put(cache, trimmer);
        trimmer.thread.start();
      }
      trimmer.stores.add(store);
      return trimmer;
    }
  }

  /** Forgets {@code store}; the last to leave stops the thread. */
  void leave(CairnBufferStoreEngine store) {
    synchronized (BY_CACHE) {
      if (stores.remove(store) && stores.isEmpty()) {
        BY_CACHE.remove(cache);
        thread.interrupt();
      }
    }
  }

  private void run() {
    while (!Thread.currentThread().isInterrupted()) {
      try {
        Thread.sleep(intervalMillis);
      } catch (InterruptedException e) {
        return;
      }
      try {
        pass();
      } catch (RuntimeException e) {
        LOG.warn("cairn: buffer trim pass failed", e);
      }
    }
  }

  private void pass() {
    Map<String, Long> picture = null;
    for (CairnBufferStoreEngine store : stores) {
      if (!store.open()) {
        store.closed();
        leave(store);
        continue;
      }
      if (store.holdsGenerations() && picture == null) {
        picture = CacheWalk.bytesByFile(cache);
      }
      store.trimPass(picture == null ? Map.of() : picture);
    }
  }
}
