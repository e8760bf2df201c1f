package dev.cairn.hbase;

import java.util.Collections;
import java.util.Map;
import java.util.Set;
import java.util.WeakHashMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;
import org.apache.hadoop.hbase.io.hfile.BlockCache;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A daemon thread per region server that ticks for the stores that joined it: the policy's load
 * model ({@link ServerLoad}) and the buffer's trim ({@link BufferTrimmer}). A region server has
 * one block cache, so a ticker is keyed by it (each server of a mini cluster in one JVM has its
 * own). The last store to leave stops the thread, so a stopped server (or a mini cluster's,
 * restarted in the same JVM) leaves no thread and no reference to its block cache behind. The
 * first store to join sets the interval.
 *
 * @param <M> the stores' type
 */
abstract class ServerTicker<M> {
  private static final Logger LOG = LoggerFactory.getLogger(ServerTicker.class);

  /** One registry per kind of ticker, so a server can run both kinds. */
  static final class Registry<T extends ServerTicker<?>> {
    private final Map<BlockCache, T> byCache = Collections.synchronizedMap(new WeakHashMap<>());
  }

  private final Registry<?> registry;
  protected final BlockCache cache;
  private final long intervalMillis;
  /** The stores joined; read by {@link #tick}. */
  protected final Set<M> members = ConcurrentHashMap.newKeySet();
  private final Thread thread;

  protected ServerTicker(Registry<?> registry, BlockCache cache, long intervalMillis, String threadName) {
    this.registry = registry;
    this.cache = cache;
    this.intervalMillis = intervalMillis;
    this.thread = new Thread(this::run, threadName);
    this.thread.setDaemon(true);
  }

  /**
   * Registers {@code member} with the ticker of the server whose block cache is {@code cache},
   * made by {@code create} and started on first use.
   */
  static <M, T extends ServerTicker<M>> T join(Registry<T> registry, BlockCache cache, Supplier<T> create, M member) {
    synchronized (registry.byCache) {
      T ticker = registry.byCache.get(cache);
      if (ticker == null) {
        ticker = create.get();
        registry.byCache.put(cache, ticker);
        ((ServerTicker<M>) ticker).thread.start();
      }
      ticker.members.add(member);
      return ticker;
    }
  }

  /** Forgets {@code member} (its region has closed); the last to leave stops the thread. */
  void leave(M member) {
    synchronized (registry.byCache) {
      if (members.remove(member) && members.isEmpty()) {
        registry.byCache.remove(cache, this); // a thread that died may have been replaced
        thread.interrupt();
      }
    }
  }

  /**
   * One interval's work. A runtime exception, or an error of the plugin's own classes (linkage
   * against another HBase, an assertion), is logged and the next interval ticks again; an error of
   * the JVM (out of memory, say) is logged and ends the thread.
   */
  protected abstract void tick();

  private void run() {
    while (!Thread.currentThread().isInterrupted()) {
      try {
        Thread.sleep(intervalMillis);
      } catch (InterruptedException e) {
        return;
      }
      try {
        tick();
      } catch (RuntimeException | LinkageError | AssertionError e) {
        LOG.warn("cairn: {} tick failed", thread.getName(), e);
      } catch (Error e) {
        // Without ticks the load stays as last sampled and a held compaction waits for its
        // store's next selection (at the next flush), which applies the delay's bounds. A store
        // that joins later gets a new thread.
        LOG.error("cairn: {} stops: its tick failed", thread.getName(), e);
        registry.byCache.remove(cache, this);
        throw e;
      }
    }
  }
}
