package dev.cairn.hbase;

import java.util.Map;
import org.apache.hadoop.hbase.io.hfile.BlockCache;

/**
 * One region server's trim: a daemon thread that, every trim interval, walks the block cache
 * once ({@link CacheWalk}; only when some store holds a generation) and lets every store with a
 * buffer judge its generations ({@link CairnBufferStoreEngine#trimPass}). A {@link ServerTicker}:
 * the first store to join sets the interval; set it site-wide.
 */
final class BufferTrimmer extends ServerTicker<CairnBufferStoreEngine> {
  private static final Registry<BufferTrimmer> SERVERS = new Registry<>();

  private BufferTrimmer(BlockCache cache, long intervalMillis) {
    super(SERVERS, cache, intervalMillis, "cairn-buffer-trim");
  }

  /** Registers {@code store} with the trim of the server whose block cache is {@code cache}. */
  static BufferTrimmer join(BlockCache cache, long intervalMillis, CairnBufferStoreEngine store) {
    return join(SERVERS, cache, () -> new BufferTrimmer(cache, intervalMillis), store);
  }

  /** The heap the buffers of the stores joined take (each read as of now). */
  long heapBytes() {
    return members.stream().mapToLong(CairnBufferStoreEngine::bufferHeapBytes).sum();
  }

  @Override
  protected void tick() {
    Map<String, Long> picture = null;
    for (CairnBufferStoreEngine store : members) {
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
