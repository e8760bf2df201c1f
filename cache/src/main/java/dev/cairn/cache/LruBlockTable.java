package dev.cairn.cache;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Function;

/**
 * {@link BlockTable} evicting the least recently used block, sharded by key as LevelDB's and
 * RocksDB's block caches are: each shard is a hash map and a recency list under its own lock, and
 * holds an equal part of the capacity.
 *
 * <p>Why beside Caffeine: W-TinyLFU admits a new block only if the sketch finds it read more often
 * than the block it would evict. A workload whose reads follow its newest writes (dLSM's "Latest"
 * workloads) asks for blocks that are new by construction; TinyLFU turned nearly half of them
 * away before their reads came (docs/compaction.md, "Flushed blocks in the cache"), and Caffeine
 * has no setting to admit them. LRU admits every block.
 *
 * <h2>Shards</h2>
 *
 * The shard count is the largest power of two, at most {@value #MAX_SHARDS}, that leaves each
 * shard at least {@value #MIN_SHARD_BYTES} bytes (RocksDB's rule, {@link ShardSizes}), so a small cache is one exact
 * LRU and a large one spreads its lock. A shard evicts for room only among its own blocks, so the
 * cache as a whole is LRU to within one shard's share of the capacity.
 *
 * <p>Removal notices are given after the shard's lock is released: the listener frees memory and
 * updates the cache's per-file index, neither of which needs the lock.
 */
final class LruBlockTable implements BlockTable {
  static final int MAX_SHARDS = 64;
  static final long MIN_SHARD_BYTES = 512 << 10;

  private final Shard[] shards;
  /** The smallest shard's capacity: a block stays only in its own shard. */
  private final long largestBlock;
  private final RemovalListener listener;

  LruBlockTable(long capacityBytes, RemovalListener listener) {
    int count = ShardSizes.count(capacityBytes, MAX_SHARDS, MIN_SHARD_BYTES);
    this.shards = new Shard[count];
    for (int i = 0; i < count; i++) {
      shards[i] = new Shard(ShardSizes.share(capacityBytes, count, i));
    }
    this.largestBlock = ShardSizes.smallestShare(capacityBytes, count);
    this.listener = listener;
  }

  /** Number of shards (for tests). */
  int shardCount() {
    return shards.length;
  }

  private Shard shard(BlockKey key) {
    int h = key.hashCode();
    h ^= h >>> 16;
    return shards[h & (shards.length - 1)];
  }

  @Override
  public SharedBlock get(BlockKey key) {
    return shard(key).get(key, true);
  }

  @Override
  public SharedBlock peek(BlockKey key) {
    return shard(key).get(key, false);
  }

  @Override
  public SharedBlock computeIfAbsent(BlockKey key, Function<BlockKey, SharedBlock> create) {
    List<Node> evicted = new ArrayList<>(0);
    SharedBlock block = shard(key).computeIfAbsent(key, create, evicted);
    notify(evicted, true);
    return block;
  }

  @Override
  public void remove(BlockKey key) {
    Node removed = shard(key).remove(key);
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

  @Override
  public long largestBlock() {
    return largestBlock;
  }

  @Override
  public void runPendingMaintenance() {
    // Nothing is deferred: every eviction is made and reported by the insert that needed room.
  }

  private void notify(List<Node> removed, boolean forRoom) {
    for (Node node : removed) {
      listener.removed(node.key, node.block, forRoom);
    }
  }

  /** One cached block in its shard's recency list. */
  private static final class Node {
    final BlockKey key;
    final SharedBlock block;
    final long weight;
    Node newer;
    Node older;

    Node(BlockKey key, SharedBlock block) {
      this.key = key;
      this.block = block;
      // At least 1, as Caffeine weighs: an empty block still takes a place.
      this.weight = Math.max(1, block.size());
    }

    /** The recency list's sentinel: no block, no weight. */
    private Node() {
      this.key = null;
      this.block = null;
      this.weight = 0;
    }
  }

  /**
   * A map and a recency list under one lock. The list is circular around a sentinel: the
   * sentinel's {@code older} is the most recently used block, its {@code newer} the least.
   * Invariant: {@code usedBytes} is the sum of the listed nodes' weights, and at most
   * {@code capacityBytes} whenever the lock is free.
   */
  private static final class Shard {
    private final long capacityBytes;
    private final ReentrantLock lock = new ReentrantLock();
    // Guarded by lock.
    private final HashMap<BlockKey, Node> map = new HashMap<>();
    private final Node sentinel = new Node();
    private long usedBytes;

    Shard(long capacityBytes) {
      this.capacityBytes = capacityBytes;
      sentinel.newer = sentinel;
      sentinel.older = sentinel;
    }

    SharedBlock get(BlockKey key, boolean recordRead) {
      lock.lock();
      try {
        Node node = map.get(key);
        if (node == null) {
          return null;
        }
        if (recordRead) {
          unlink(node);
          linkMostRecent(node);
        }
        return node.block;
      } finally {
        lock.unlock();
      }
    }

    SharedBlock computeIfAbsent(BlockKey key, Function<BlockKey, SharedBlock> create, List<Node> evicted) {
      lock.lock();
      try {
        Node node = map.get(key);
        if (node != null) {
          // Two readers missed the same block: the second one's read is a read too.
          unlink(node);
          linkMostRecent(node);
          return node.block;
        }
        node = new Node(key, create.apply(key));
        map.put(key, node);
        linkMostRecent(node);
        usedBytes += node.weight;
        // Evicts from the least recent end. A block larger than the shard would leave last, after
        // everything else; the cache offers none (largestBlock()).
        while (usedBytes > capacityBytes) {
          Node victim = sentinel.newer;
          unlink(victim);
          map.remove(victim.key);
          usedBytes -= victim.weight;
          evicted.add(victim);
        }
        return node.block;
      } finally {
        lock.unlock();
      }
    }

    Node remove(BlockKey key) {
      lock.lock();
      try {
        Node node = map.remove(key);
        if (node != null) {
          unlink(node);
          usedBytes -= node.weight;
        }
        return node;
      } finally {
        lock.unlock();
      }
    }

    List<Node> clear() {
      lock.lock();
      try {
        List<Node> all = new ArrayList<>(map.values());
        map.clear();
        sentinel.newer = sentinel;
        sentinel.older = sentinel;
        usedBytes = 0;
        return all;
      } finally {
        lock.unlock();
      }
    }

    private void unlink(Node node) {
      node.newer.older = node.older;
      node.older.newer = node.newer;
    }

    private void linkMostRecent(Node node) {
      node.older = sentinel.older;
      node.newer = sentinel;
      sentinel.older.newer = node;
      sentinel.older = node;
    }
  }
}
