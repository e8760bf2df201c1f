package dev.cairn.cache;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;
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
 * Each shard holds an equal part of the capacity, split into a <em>window</em>, at first
 * {@value #MIN_WINDOW_PERCENT}% of it (Caffeine's starting size), and a <em>main</em> part, with
 * its own {@link FrequencySketch}. Every newcomer enters the window, a FIFO queue, and
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
 * <p>The sketch is counted on the insert path only (an insert, a window block's read when it
 * leaves the window, a main block's read when the hand passes it), so every count is taken under
 * the shard's lock and a hit writes nothing but its bit.
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

  private final ConcurrentHashMap<BlockKey, Entry> map = new ConcurrentHashMap<>();
  private final Shard[] shards;
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
    this.shards = new Shard[count];
    for (int i = 0; i < count; i++) {
      shards[i] = new Shard(ShardSizes.share(capacityBytes, count, i), minWindowPercent, maxWindowPercent);
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
    for (Shard shard : shards) {
      shard.lock.lock();
      try {
        sum += shard.sizer.capacity();
      } finally {
        shard.lock.unlock();
      }
    }
    return sum;
  }

  /** The sketch's count for {@code key} in its shard (for tests). */
  int frequency(BlockKey key) {
    long hash = hash(key);
    Shard shard = shard(hash);
    shard.lock.lock();
    try {
      return shard.sketch.frequency(hash);
    } finally {
      shard.lock.unlock();
    }
  }

  private Shard shard(long hash) {
    return shardShift == 64 ? shards[0] : shards[(int) (hash >>> shardShift)];
  }

  private static long hash(BlockKey key) {
    return FrequencySketch.hash(key.fileNumber(), key.offset());
  }

  @Override
  public SharedBlock get(BlockKey key) {
    Entry entry = map.get(key);
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
    Entry entry = map.get(key);
    return entry == null ? null : entry.block;
  }

  @Override
  public SharedBlock computeIfAbsent(BlockKey key, Function<BlockKey, SharedBlock> create) {
    long hash = hash(key);
    List<Entry> evicted = new ArrayList<>(2);
    SharedBlock block = shard(hash).computeIfAbsent(key, hash, create, evicted);
    notify(evicted, true);
    return block;
  }

  @Override
  public void remove(BlockKey key) {
    Entry removed = shard(hash(key)).remove(key);
    if (removed != null) {
      listener.removed(removed.key, removed.block, false);
    }
  }

  @Override
  public void clear() {
    for (Shard shard : shards) {
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

  private void notify(List<Entry> removed, boolean forRoom) {
    for (Entry entry : removed) {
      listener.removed(entry.key, entry.block, forRoom);
    }
  }

  /** One cached block, in its shard's window queue or main ring. */
  private static final class Entry {
    final BlockKey key;
    final SharedBlock block;
    final long hash;
    final long weight;
    /** Read since the hand last passed (or since it was cached); written by readers unlocked. */
    boolean referenced;
    /** Guarded by the shard's lock, as are the links. */
    boolean inMain;
    Entry previous;
    Entry next;

    Entry(BlockKey key, SharedBlock block, long hash) {
      this.key = key;
      this.block = block;
      this.hash = hash;
      // At least 1, as Caffeine weighs: an empty block still takes a place.
      this.weight = Math.max(1, block.size());
    }

    /** The window queue's sentinel. */
    private Entry() {
      this.key = null;
      this.block = null;
      this.hash = 0;
      this.weight = 0;
    }
  }

  /**
   * A window queue and a main ring under one lock. Invariants, whenever the lock is free:
   * {@code windowBytes} and {@code mainBytes} are the sums of the weights queued and ringed, the
   * window holds at most its capacity ({@link WindowSizer#capacity}, which moves only during an
   * insert, before that insert's evictions restore this) and the two together at most {@code
   * capacity} (so a window too small for a block takes nothing from the ring);
   * every entry queued or ringed is the map's entry for its key, and no other entry of this shard
   * is in the map.
   */
  private final class Shard {
    private final long capacity;
    private final ReentrantLock lock = new ReentrantLock();
    // Guarded by lock.
    private final WindowSizer sizer;
    private final FrequencySketch sketch;
    /** The window's FIFO queue, circular around it: {@code next} is the oldest, {@code previous} the newest. */
    private final Entry window = new Entry();
    /** The main ring's hand: the next block to examine, null when the ring is empty. */
    private Entry hand;
    private long windowBytes;
    private long mainBytes;
    /** Blocks in the window and the ring, and in the ring alone. */
    private int entries;
    private int mainEntries;

    Shard(long capacityBytes, int minWindowPercent, int maxWindowPercent) {
      this.capacity = capacityBytes;
      this.sizer = new WindowSizer(capacityBytes, capacityBytes * minWindowPercent / 100,
          capacityBytes * maxWindowPercent / 100);
      // Sized by the blocks cached, not the capacity: it grows as the shard fills.
      this.sketch = new FrequencySketch(0);
      window.next = window;
      window.previous = window;
    }

    SharedBlock computeIfAbsent(BlockKey key, long hash, Function<BlockKey, SharedBlock> create,
        List<Entry> evicted) {
      lock.lock();
      try {
        Entry entry = map.get(key);
        if (entry != null) {
          // Two readers missed the same block: the second one's read is a read too.
          entry.referenced = true;
          return entry.block;
        }
        entry = new Entry(key, create.apply(key), hash);
        map.put(key, entry);
        entries++;
        if (sketch.ensureCapacity(entries)) {
          countEveryCachedBlockOnce();
        }
        sketch.increment(hash);
        sizer.onInsert(hash, entry.weight, entries, entries - mainEntries);
        linkNewest(entry);
        long windowCapacity = sizer.capacity();
        // The window's bound decides when a block faces admission; the shard's, when anything
        // must leave: the window's oldest if the window is over its share (the newest block is in
        // the window, so it is never empty then), else the ring's victim, the ring being over its
        // own share since the window grew.
        while (windowBytes > windowCapacity || windowBytes + mainBytes > capacity) {
          if (windowBytes > windowCapacity || hand == null) {
            Entry candidate = window.next;
            unlinkFromWindow(candidate);
            admitToMain(candidate, evicted);
          } else {
            Entry victim = advanceToVictim();
            unlinkFromMain(victim);
            eject(victim, evicted);
          }
        }
        return entry.block;
      } finally {
        lock.unlock();
      }
    }

    /**
     * Seeds a grown sketch, which has forgotten everything, with one request for each block
     * cached: else the blocks cached while it was small would count less than a newcomer asked
     * for once. Amortized, one count per block per doubling.
     */
    private void countEveryCachedBlockOnce() {
      forEachCached(e -> sketch.increment(e.hash));
    }

    /** Every block in the window, then every block in the ring from the hand on. */
    private void forEachCached(Consumer<Entry> action) {
      for (Entry e = window.next; e != window; e = e.next) {
        action.accept(e);
      }
      if (hand != null) {
        Entry e = hand;
        do {
          action.accept(e);
          e = e.next;
        } while (e != hand);
      }
    }

    /**
     * The candidate leaves the window: into the main ring if there is room or it wins against
     * the victims it needs moved out, else out of the cache (its caller still holds it). A block
     * that would not fit beside the window with the ring empty leaves at once, taking no one
     * with it; {@link #largestBlock} keeps blocks larger than the shard from being offered.
     */
    private void admitToMain(Entry candidate, List<Entry> evicted) {
      if (candidate.referenced) {
        // Read in the window: that read counts now, for its admission, and its bit stays set,
        // so the hand passes it once (counting the read again) before it can be a victim: a
        // block read while new gets two turns. Clearing the bit here cost 21% of ycsb-c's reads/s
        // with direct reads (docs/results/issue21 s11-direct-policy against s11-direct-policy-ab).
        sketch.increment(candidate.hash);
      }
      if (candidate.weight > capacity - windowBytes) {
        // Could not fit even with the ring empty: evicting for it would only empty the ring.
        evict(candidate, evicted);
        return;
      }
      while (windowBytes + mainBytes + candidate.weight > capacity) {
        Entry victim = advanceToVictim();
        if (victim != null && sketch.frequency(candidate.hash) > sketch.frequency(victim.hash)) {
          unlinkFromMain(victim);
          eject(victim, evicted);
        } else {
          evict(candidate, evicted);
          sizer.refused(candidate.hash);
          return;
        }
      }
      linkBehindHand(candidate);
    }

    /**
     * Moves the hand to the first block not read since it last passed, clearing and counting the
     * read bits on its way. After a whole turn it stops wherever it is, so readers setting bits
     * as fast as it clears them cannot keep it going. Null if the ring is empty.
     */
    private Entry advanceToVictim() {
      if (hand == null) {
        return null;
      }
      for (int passed = 0; hand.referenced && passed <= mainEntries; passed++) {
        hand.referenced = false;
        sketch.increment(hand.hash);
        hand = hand.next;
      }
      return hand;
    }

    /** Evicts a block from the ring for room, telling the window's sizer. */
    private void eject(Entry victim, List<Entry> evicted) {
      evict(victim, evicted);
      sizer.ejected(victim.hash);
    }

    private void evict(Entry entry, List<Entry> evicted) {
      map.remove(entry.key);
      entries--;
      evicted.add(entry);
    }

    Entry remove(BlockKey key) {
      lock.lock();
      try {
        Entry entry = map.remove(key);
        if (entry != null) {
          entries--;
          if (entry.inMain) {
            unlinkFromMain(entry);
          } else {
            unlinkFromWindow(entry);
          }
        }
        return entry;
      } finally {
        lock.unlock();
      }
    }

    List<Entry> clear() {
      lock.lock();
      try {
        List<Entry> all = new ArrayList<>(entries);
        forEachCached(all::add);
        for (Entry e : all) {
          map.remove(e.key);
        }
        window.next = window;
        window.previous = window;
        hand = null;
        windowBytes = 0;
        mainBytes = 0;
        entries = 0;
        mainEntries = 0;
        return all;
      } finally {
        lock.unlock();
      }
    }

    private void linkNewest(Entry entry) {
      entry.inMain = false;
      entry.previous = window.previous;
      entry.next = window;
      window.previous.next = entry;
      window.previous = entry;
      windowBytes += entry.weight;
    }

    private void unlinkFromWindow(Entry entry) {
      entry.previous.next = entry.next;
      entry.next.previous = entry.previous;
      windowBytes -= entry.weight;
    }

    /** Into the ring just behind the hand, so it is examined last: a full turn from now. */
    private void linkBehindHand(Entry entry) {
      entry.inMain = true;
      if (hand == null) {
        entry.previous = entry;
        entry.next = entry;
        hand = entry;
      } else {
        entry.previous = hand.previous;
        entry.next = hand;
        hand.previous.next = entry;
        hand.previous = entry;
      }
      mainBytes += entry.weight;
      mainEntries++;
    }

    private void unlinkFromMain(Entry entry) {
      if (entry.next == entry) {
        hand = null;
      } else {
        if (hand == entry) {
          hand = entry.next;
        }
        entry.previous.next = entry.next;
        entry.next.previous = entry.previous;
      }
      mainBytes -= entry.weight;
      mainEntries--;
    }
  }
}
