package dev.cairn.cache;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.Policy;
import com.github.benmanes.caffeine.cache.RemovalCause;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Function;

/**
 * {@link BlockTable} on a Caffeine cache weighed in bytes (W-TinyLFU eviction).
 *
 * <p>Caffeine runs maintenance (eviction, removal notices) on an executor, by default the common
 * pool. Here it runs on the calling thread ({@code executor(Runnable::run)}), so a write's
 * evictions are reported when it returns. Under concurrency Caffeine may still defer maintenance
 * to whichever thread next holds its eviction lock, so the capacity can be exceeded briefly.
 *
 * <h2>Sampled hits</h2>
 *
 * Caffeine records each read it is told of in a buffer that maintenance drains into its frequency
 * sketch and LRU order, a batch at a time, on the calling thread here: the read that drains a
 * full buffer takes several times as long as the others, and those reads made up Cairn's read
 * p99 (docs/performance.md, "Caffeine's maintenance and the read p99"). A hit is therefore
 * told to Caffeine one time in {@value #RECORDED_HIT_ONE_IN}, chosen at random; the others look
 * the block up quietly. Caffeine's read buffer already drops reads under contention, so its
 * frequencies were samples before; a hot block is still recorded often, and inserts are recorded
 * as before. Measured at a one-in-eight sample: hit ratio within 1% of recording every hit, read
 * p99 lower (docs/decisions/0013, with the alternatives measured).
 */
final class CaffeineBlockTable implements BlockTable {
  /** One hit in this many is recorded by Caffeine (a power of two); see "Sampled hits". */
  static final int RECORDED_HIT_ONE_IN = 8;

  private final Cache<BlockKey, SharedBlock> cache;
  private final Policy<BlockKey, SharedBlock> policy;
  private final long capacityBytes;

  CaffeineBlockTable(long capacityBytes, RemovalListener listener) {
    this.capacityBytes = capacityBytes;
    this.cache =
        Caffeine.newBuilder()
            .maximumWeight(capacityBytes)
            // Weight at least 1: Caffeine never evicts zero-weight entries, so empty blocks
            // would otherwise stay forever.
            .weigher((BlockKey key, SharedBlock block) -> Math.max(1, block.size()))
            .executor(Runnable::run)
            .removalListener((BlockKey key, SharedBlock block, RemovalCause cause) -> {
              // Keys and values are strongly held, so Caffeine never passes null here.
              assert key != null && block != null : "strong entries have a key and a value";
              assert cause != RemovalCause.REPLACED : "the cache never replaces a block";
              listener.removed(key, block, cause == RemovalCause.SIZE);
            })
            .build();
    this.policy = cache.policy();
  }

  @Override
  public SharedBlock get(BlockKey key) {
    return recordThisHit() ? cache.getIfPresent(key) : policy.getIfPresentQuietly(key);
  }

  /** Whether this lookup tells Caffeine of its hit: one in {@link #RECORDED_HIT_ONE_IN}. */
  private static boolean recordThisHit() {
    return (ThreadLocalRandom.current().nextInt() & (RECORDED_HIT_ONE_IN - 1)) == 0;
  }

  @Override
  public SharedBlock peek(BlockKey key) {
    return policy.getIfPresentQuietly(key);
  }

  @Override
  public SharedBlock computeIfAbsent(BlockKey key, Function<BlockKey, SharedBlock> create) {
    return cache.asMap().computeIfAbsent(key, create);
  }

  @Override
  public void remove(BlockKey key) {
    cache.invalidate(key);
  }

  /** Caffeine is not sharded: any block within the whole capacity may stay. */
  @Override
  public long largestBlock() {
    return capacityBytes;
  }

  @Override
  public void clear() {
    cache.invalidateAll();
    cache.cleanUp();
  }

  @Override
  public void runPendingMaintenance() {
    cache.cleanUp();
  }
}
