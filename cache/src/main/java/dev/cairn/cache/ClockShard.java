package dev.cairn.cache;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * One shard of a {@link ClockBlockTable}: a window queue and a main ring under one lock, with the
 * shard's {@link FrequencySketch} and {@link WindowSizer} (the class comment of {@link
 * ClockBlockTable} describes the policy). Invariants, whenever the lock is free:
 * {@code windowBytes} and {@code mainBytes} are the sums of the weights queued and ringed, the
 * window holds at most its capacity ({@link WindowSizer#capacity}, which moves only during an
 * insert, before that insert's evictions restore this) and the two together at most {@code
 * capacity} (so a window too small for a block takes nothing from the ring);
 * every entry queued or ringed is the map's entry for its key, and no other entry of this shard
 * is in the map.
 *
 * <p>The map is shared by every shard of the table; only a shard's lock holder adds or removes
 * that shard's keys, so {@code computeIfAbsent} checks and inserts under the lock and {@code
 * create} runs at most once per key. The {@code referenced} bit is written by readers without a
 * lock: a bit lost or seen late costs its block one rotation's protection, never a wrong answer.
 * Removal notices are the caller's, given after the lock is released: the evicted and removed
 * entries are handed back.
 */
final class ClockShard {
  /** The table's map, for every shard. */
  private final ConcurrentHashMap<BlockKey, Entry> map;
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

  ClockShard(ConcurrentHashMap<BlockKey, Entry> map, long capacityBytes, int minWindowPercent, int maxWindowPercent) {
    this.map = map;
    this.capacity = capacityBytes;
    this.sizer = new WindowSizer(capacityBytes, capacityBytes * minWindowPercent / 100,
        capacityBytes * maxWindowPercent / 100);
    // Sized by the blocks cached, not the capacity: it grows as the shard fills.
    this.sketch = new FrequencySketch(0);
    window.next = window;
    window.previous = window;
  }

  /** The window's capacity now. */
  long windowCapacity() {
    lock.lock();
    try {
      return sizer.capacity();
    } finally {
      lock.unlock();
    }
  }

  /** The sketch's count for the block of {@code hash}. */
  int frequency(long hash) {
    lock.lock();
    try {
      return sketch.frequency(hash);
    } finally {
      lock.unlock();
    }
  }

  /**
   * Caches the block of {@code key}, just missed, unless it is cached: into the window, as the
   * newest block, and one request for the sketch. A cached block is returned marked read.
   */
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
      entry = add(key, hash, create);
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
   * Caches a block just written, not read, unless it is cached: into the ring just behind the
   * hand, past the window and admission, making room by evicting the hand's victims. The sketch
   * does not count it, and the victims it evicts are remembered as given up (a miss for one
   * pushes the window down) but not counted in the rates that judge admission: the window did
   * not let the written block in. A cached block is returned as it is, not marked read. A block
   * that would not fit beside the window with the ring empty is not cached and evicts no one.
   * See {@link ClockBlockTable}, "Written blocks".
   */
  SharedBlock computeIfAbsentWritten(BlockKey key, long hash, Function<BlockKey, SharedBlock> create,
      List<Entry> evicted) {
    lock.lock();
    try {
      Entry entry = map.get(key);
      if (entry != null) {
        return entry.block;
      }
      entry = add(key, hash, create);
      if (entry.weight > capacity - windowBytes) {
        evict(entry, evicted);
        return entry.block;
      }
      // What the window does not hold is the ring's, so while the block does not fit the ring
      // is not empty.
      while (windowBytes + mainBytes + entry.weight > capacity) {
        Entry victim = advanceToVictim();
        unlinkFromMain(victim);
        evict(victim, evicted);
        sizer.givenUpForWritten(victim.hash);
      }
      linkBehindHand(entry);
      return entry.block;
    } finally {
      lock.unlock();
    }
  }

  /** A new entry for {@code key}, in the map and counted, in neither the window nor the ring yet. */
  private Entry add(BlockKey key, long hash, Function<BlockKey, SharedBlock> create) {
    Entry entry = new Entry(key, create.apply(key), hash);
    map.put(key, entry);
    entries++;
    if (sketch.ensureCapacity(entries)) {
      countEveryCachedBlockOnce();
    }
    return entry;
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
   * with it; {@link ClockBlockTable#largestBlock} keeps blocks larger than the shard from being offered.
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

  /** One cached block, in its shard's window queue or main ring. */
  static final class Entry {
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
}
