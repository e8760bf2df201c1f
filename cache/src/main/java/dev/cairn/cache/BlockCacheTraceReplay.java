package dev.cairn.cache;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * What a block cache of a given policy and capacity would have kept of the reads a {@link
 * BlockCacheTrace} recorded: the trace's lookups, in their order, against that cache alone, one
 * thread, with no block memory (blocks weigh what the trace says). Deterministic for a trace.
 *
 * <p>The replay follows the trace's requests, not its outcomes: a lookup the replayed cache
 * misses caches the block as the engine would (when the trace's next record caches it, with its
 * size; at once if the traced cache had hit, with the size the hit recorded), and a block the
 * traced cache read after a miss the replayed cache had hit is not cached a second time. Written
 * blocks are cached as {@link Written} says, and a dropped file's blocks leave. What the replay
 * cannot see: reads the traced engine would not have made, or made later, with a different cache
 * (a slower read path reads less in the same time).
 */
public final class BlockCacheTraceReplay {
  /** How the replay caches the blocks the trace cached as they were written. */
  public enum Written {
    /** Not at all, as with flush caching off. */
    NOT_CACHED,
    /** As written blocks ({@link BlockCache#insertWritten}): what the engine does. */
    AS_WRITTEN,
    /** As blocks read after a miss would be ({@link BlockCache#insert}). */
    AS_READ
  }

  /**
   * The replay's counts: every lookup, and those at or after {@code measuredFromNanos} (the
   * trace's own clock), which leave out the cache's filling; the clock's window at the end (0
   * for other policies).
   */
  public record Result(long lookups, long hits, long measuredLookups, long measuredHits, long windowBytes) {
    public double hitRatio() {
      return lookups == 0 ? 0 : (double) hits / lookups;
    }

    public double measuredHitRatio() {
      return measuredLookups == 0 ? 0 : (double) measuredHits / measuredLookups;
    }
  }

  /** The span of a trace: its first lookup's time and its last record's. */
  public record Span(long firstLookupNanos, long lastNanos, long records) {
    /** The time {@code fraction} of the way from the first lookup to the end. */
    public long at(double fraction) {
      return firstLookupNanos + Math.round((lastNanos - firstLookupNanos) * fraction);
    }
  }

  private BlockCacheTraceReplay() {}

  /** Reads {@code trace} through once for its span. */
  public static Span span(Path trace) throws IOException {
    long first = -1;
    long last = 0;
    long records = 0;
    try (BlockCacheTraceReader r = new BlockCacheTraceReader(trace)) {
      while (r.next()) {
        records++;
        last = r.nanos();
        if (first < 0 && isLookup(r.kind())) {
          first = r.nanos();
        }
      }
    }
    return new Span(Math.max(0, first), last, records);
  }

  /** Replays {@code trace} against a new table of {@code policy} and {@code capacityBytes}. */
  public static Result replay(Path trace, EvictionPolicy policy, long capacityBytes, Written written,
      long measuredFromNanos) throws IOException {
    if (capacityBytes <= 0) {
      throw new IllegalArgumentException("a replayed cache needs a positive capacity, got " + capacityBytes);
    }
    BlockTable table = BlockTable.create(policy, capacityBytes, (key, block, forRoom) -> block.release());
    long largest = table.largestBlock();
    Map<Long, Set<Long>> offsetsByFile = new HashMap<>();
    // Missed by the traced cache and hit by the replayed one: the trace's caching of it is not replayed.
    Set<BlockKey> hitHere = new HashSet<>();
    long lookups = 0;
    long hits = 0;
    long measuredLookups = 0;
    long measuredHits = 0;
    try (BlockCacheTraceReader r = new BlockCacheTraceReader(trace)) {
      while (r.next()) {
        BlockKey key = new BlockKey(r.fileNumber(), r.offset());
        switch (r.kind()) {
          case HIT, MISS -> {
            boolean hit = table.get(key) != null;
            lookups++;
            hits += hit ? 1 : 0;
            if (r.nanos() >= measuredFromNanos) {
              measuredLookups++;
              measuredHits += hit ? 1 : 0;
            }
            if (hit && r.kind() == BlockCacheTrace.Kind.MISS) {
              hitHere.add(key);
            } else if (!hit && r.kind() == BlockCacheTrace.Kind.HIT) {
              cache(table, key, r.bytes(), largest, true, offsetsByFile);
            }
          }
          case READ_CACHED -> {
            if (!hitHere.remove(key)) {
              cache(table, key, r.bytes(), largest, true, offsetsByFile);
            }
          }
          case WRITTEN_CACHED -> {
            if (written != Written.NOT_CACHED) {
              cache(table, key, r.bytes(), largest, written == Written.AS_READ, offsetsByFile);
            }
          }
          case FILE_DROPPED -> {
            Set<Long> offsets = offsetsByFile.remove(r.fileNumber());
            if (offsets != null) {
              for (long offset : offsets) {
                table.remove(new BlockKey(r.fileNumber(), offset));
              }
            }
          }
        }
      }
    }
    long windowBytes = table.windowCapacity();
    table.clear();
    return new Result(lookups, hits, measuredLookups, measuredHits, windowBytes);
  }

  private static boolean isLookup(BlockCacheTrace.Kind kind) {
    return kind == BlockCacheTrace.Kind.HIT || kind == BlockCacheTrace.Kind.MISS;
  }

  /** Caches a stand-in of {@code bytes} under {@code key}, as the engine's cache would offer it. */
  private static void cache(BlockTable table, BlockKey key, int bytes, long largest, boolean read,
      Map<Long, Set<Long>> offsetsByFile) {
    if (bytes > largest) {
      return; // the engine's cache does not offer a block larger than it could keep
    }
    if (read) {
      table.computeIfAbsent(key, k -> standIn(bytes));
    } else {
      table.computeIfAbsentWritten(key, k -> standIn(bytes));
    }
    offsetsByFile.computeIfAbsent(key.fileNumber(), f -> new HashSet<>()).add(key.offset());
  }

  /** A block of {@code bytes} with no memory behind it: the table weighs it and nothing reads it. */
  static SharedBlock standIn(int bytes) {
    return new SharedBlock(new MemoryRegion() {
      @Override
      public ByteBuffer buffer() {
        return ByteBuffer.allocate(0);
      }

      @Override
      public int size() {
        return bytes;
      }

      @Override
      public void free() {}
    }, 1);
  }
}
