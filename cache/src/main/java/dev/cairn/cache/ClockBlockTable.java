package dev.cairn.cache;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

/**
 * {@link BlockTable} with W-TinyLFU's admission over CLOCK eviction, sharded: a hit finds its
 * block in a concurrent map and sets one bit, with no lock, no buffer and nothing for a later
 * reader to drain; an insert takes its shard's lock and does that shard's whole eviction work,
 * bounded by the blocks it passes.
 *
 * <p>Why beside Caffeine: Caffeine's reads are as cheap, but every insert runs its maintenance
 * (draining the read and write buffers, evicting, climbing its window size) on the calling
 * thread, and what that costs moves with its hill climber's window: 2.6 us of a 12-us miss in one
 * run, 5.3 in the next (docs/results/issue21 {@code s9-tailprobe}). Here an insert pays for its
 * own admission and the blocks its hand passes, the same in every run.
 *
 * <h2>A shard</h2>
 *
 * Each shard ({@link ClockShard}) holds an equal part of the capacity, split into a
 * <em>window</em>, at first {@value #MIN_WINDOW_PERCENT}% of it (Caffeine's starting size), and a
 * <em>main</em> part, with its own {@link FrequencySketch}. Every newcomer enters the window, a FIFO queue, and
 * is admitted by no one: a block read twice in quick succession stays. The block the window
 * pushes out is the <em>candidate</em>; it enters the main part if there is room, else only if
 * the sketch counts it requested more often than the main part's <em>victim</em>, which leaves in
 * its place (ties keep the victim, as TinyLFU does: a block asked for once does not displace one
 * asked for once). The main part is a CLOCK ring: a hit sets its block's {@code referenced} bit;
 * the hand clears set bits as it passes, counting each as one request in the sketch, and the
 * first block it finds unset is the victim. So a block's sketch count grows with the rotations in
 * which it was read, and the sketch halves its counters as it ages.
 *
 * <h2>The window's size</h2>
 *
 * A fixed 1% window loses where the blocks read most are new ones, as in the Latest workloads:
 * a block read a few times in its life is turned away while older blocks keep the counts they
 * earned, and an LRU cache of the same size held 0.87 of the reads against this clock's 0.33
 * (decision 0017). Caffeine sizes its window by climbing on the hit ratio of samples of ten
 * times its capacity in requests; on a slow device a sample takes minutes. So the window moves
 * as ARC moves its split, from misses: each shard remembers the hashes of the blocks its window's
 * exit turned away and of those its ring gave up ({@link EvictedHashes}). A miss for a block
 * turned away lately grows the window, one for a block the ring gave up lately shrinks it
 * ({@link WindowSizer} says how lately and how much), between
 * {@value #MIN_WINDOW_PERCENT}% and {@value #MAX_WINDOW_PERCENT}% of the shard. Hits pay nothing
 * for it; a miss, two probes of the lists and one write.
 *
 * <p>The sketch is counted on the insert path only (a missed block's insert, a window block's read when it
 * leaves the window, a main block's read when the hand passes it), so every count is taken under
 * the shard's lock and a hit writes nothing but its bit.
 *
 * <h2>Written blocks</h2>
 *
 * A block cached as it is written ({@link #computeIfAbsentWritten}: a flush's output under flush
 * caching, a block the compaction buffer moved while cached) goes into the ring just behind the
 * hand, past the window and admission, as an LRU puts a block at its head: the hand reaches it
 * last, and takes it then unless it was read. The sketch does not count it (a write is not a
 * request), and the blocks the hand gives up for it are remembered as given up, so that their
 * return shrinks the window, but not counted in the rates that weigh admission's refusals.
 * Through the window, a flush's burst (about 512 blocks a shard of a 128 MiB cache, through a
 * window of about 20) faced admission before any read could reach it and was turned away; counted
 * as a read, every written block would beat ring victims whose counts had aged to nothing. On
 * block traces recorded from the engine, this placement kept as many of the reads in cache as an
 * LRU on the slow device, where the uncounted window entry kept about 14 points fewer
 * (docs/decisions/0020, lever 2).
 *
 * <h2>Concurrency</h2>
 *
 * The map is one {@link ConcurrentHashMap} for every shard; only a shard's lock holder adds or
 * removes that shard's keys, so {@code computeIfAbsent} checks and inserts under the lock and
 * {@code create} runs at most once per key. The {@code referenced} bit is written by readers
 * without a lock: a bit lost or seen late costs its block one rotation's protection, never a
 * wrong answer. Removal notices are given after the lock is released, as {@link LruBlockTable}
 * gives them.
 */
final class ClockBlockTable implements BlockTable {
  static final int MAX_SHARDS = 16;
  static final long MIN_SHARD_BYTES = 1 << 20;
  /** The window's share of its shard at first and at least (Caffeine's starting size). */
  static final int MIN_WINDOW_PERCENT = 1;
  /**
   * The most the window may grow to: the main part keeps a fifth, so that a run of returns to
   * the window's refusals cannot push out every block that frequency admitted.
   */
  static final int MAX_WINDOW_PERCENT = 80;

  private final ConcurrentHashMap<BlockKey, ClockShard.Entry> map = new ConcurrentHashMap<>();
  private final ClockShard[] shards;
  /** The smallest shard's capacity: a block stays only in its own shard. */
  private final long largestBlock;
  private final int shardShift;
  private final RemovalListener listener;

  ClockBlockTable(long capacityBytes, RemovalListener listener) {
    this(capacityBytes, MIN_WINDOW_PERCENT, MAX_WINDOW_PERCENT, listener);
  }

  /**
   * A table whose window may move between {@code minWindowPercent} and {@code maxWindowPercent}
   * of each shard (equal: a fixed window, for the tests that compare the two).
   */
  ClockBlockTable(long capacityBytes, int minWindowPercent, int maxWindowPercent, RemovalListener listener) {
    if (minWindowPercent < 0 || minWindowPercent > maxWindowPercent || maxWindowPercent > 100) {
      throw new IllegalArgumentException("window between " + minWindowPercent + "% and " + maxWindowPercent
          + "% of the capacity: needs 0 <= min <= max <= 100");
    }
    int count = ShardSizes.count(capacityBytes, MAX_SHARDS, MIN_SHARD_BYTES);
    this.shards = new ClockShard[count];
    for (int i = 0; i < count; i++) {
      shards[i] = new ClockShard(map, ShardSizes.share(capacityBytes, count, i), minWindowPercent, maxWindowPercent);
    }
    this.largestBlock = ShardSizes.smallestShare(capacityBytes, count);
    // The top bits of the hash choose the shard (64 for a single shard: see shard()).
    this.shardShift = 64 - Integer.numberOfTrailingZeros(count);
    this.listener = listener;
  }

  /** Number of shards (for tests). */
  int shardCount() {
    return shards.length;
  }

  /** The window's capacity, summed over the shards. */
  @Override
  public long windowCapacity() {
    long sum = 0;
    for (ClockShard shard : shards) {
      sum += shard.windowCapacity();
    }
    return sum;
  }

  /** The sketch's count for {@code key} in its shard (for tests). */
  int frequency(BlockKey key) {
    long hash = hash(key);
    return shard(hash).frequency(hash);
  }

  private ClockShard shard(long hash) {
    return shardShift == 64 ? shards[0] : shards[(int) (hash >>> shardShift)];
  }

  private static long hash(BlockKey key) {
    return FrequencySketch.hash(key.fileNumber(), key.offset());
  }

  @Override
  public SharedBlock get(BlockKey key) {
    ClockShard.Entry entry = map.get(key);
    if (entry == null) {
      return null;
    }
    // Written only when clear, so a block read on every get does not dirty its cache line each time.
    if (!entry.referenced) {
      entry.referenced = true;
    }
    return entry.block;
  }

  @Override
  public SharedBlock peek(BlockKey key) {
    ClockShard.Entry entry = map.get(key);
    return entry == null ? null : entry.block;
  }

  @Override
  public SharedBlock computeIfAbsent(BlockKey key, Function<BlockKey, SharedBlock> create) {
    long hash = hash(key);
    List<ClockShard.Entry> evicted = new ArrayList<>(2);
    SharedBlock block = shard(hash).computeIfAbsent(key, hash, create, evicted);
    notify(evicted, true);
    return block;
  }

  /** Cached past the window and admission: see "Written blocks" above. */
  @Override
  public SharedBlock computeIfAbsentWritten(BlockKey key, Function<BlockKey, SharedBlock> create) {
    long hash = hash(key);
    List<ClockShard.Entry> evicted = new ArrayList<>(2);
    SharedBlock block = shard(hash).computeIfAbsentWritten(key, hash, create, evicted);
    notify(evicted, true);
    return block;
  }

  @Override
  public void remove(BlockKey key) {
    ClockShard.Entry removed = shard(hash(key)).remove(key);
    if (removed != null) {
      listener.removed(removed.key, removed.block, false);
    }
  }

  @Override
  public void clear() {
    for (ClockShard shard : shards) {
      notify(shard.clear(), false);
    }
  }

  /**
   * A block up to it may still not fit beside what its window holds at the time: then it leaves
   * at once, alone.
   */
  @Override
  public long largestBlock() {
    return largestBlock;
  }

  @Override
  public void runPendingMaintenance() {
    // Nothing is deferred: every eviction is made and reported by the insert that needed room.
  }

  private void notify(List<ClockShard.Entry> removed, boolean forRoom) {
    for (ClockShard.Entry entry : removed) {
      listener.removed(entry.key, entry.block, forRoom);
    }
  }
}
