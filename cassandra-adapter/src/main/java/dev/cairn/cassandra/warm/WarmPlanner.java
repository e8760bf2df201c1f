package dev.cairn.cassandra.warm;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;

/**
 * Which chunks of a compaction's output to read into the chunk cache: pure, the outputs and their
 * hot partitions in, the chunks out. Cassandra-free so that every rule is tested shape-in/plan-out.
 *
 * <p>The rules:
 *
 * <ol>
 *   <li>Nothing is read when warming is off, when the node has no chunk cache, when the table's
 *       load is high (warming reads would compete with the clients' for the device), or when no
 *       output partition is hot.
 *   <li>A hot partition's chunk is the one holding its first byte: the chunk its point reads
 *       load first. A partition longer than a chunk is warmed in its first chunk only.
 *   <li>Chunks are taken hottest partition first, each chunk once, until the next chunk would
 *       pass the budget: the smaller of the per-compaction budget and half the chunk cache, so
 *       that one compaction's warming never evicts more than half of what the clients' reads put
 *       there. The chunks taken are then read output by output in file order (the device reads
 *       them nearly sequentially).
 * </ol>
 */
public final class WarmPlanner {
  private WarmPlanner() {}

  /** Why a compaction's output was not warmed; {@link #NONE} when it was planned. */
  public enum Skip {
    NONE,
    OFF,
    /** No chunk cache, or one that does not serve the table's data (uncompressed and mmap). */
    NO_CHUNK_CACHE,
    HIGH_LOAD,
    NO_HOT_PARTITIONS,
    /** Not the planner's: the warming thread had too many compactions queued. */
    QUEUE_FULL,
    /** Not the planner's: warming failed (and was logged). */
    FAILED
  }

  /**
   * One output SSTable.
   *
   * @param name the output's data file, for the plan and the log
   * @param chunkBytes the chunk-cache chunk of its data file (positive)
   * @param dataLength the data file's length; positions at or past it are ignored
   */
  public record Output(String name, int chunkBytes, long dataLength) {
    public Output {
      Objects.requireNonNull(name, "name");
      if (chunkBytes <= 0) {
        throw new IllegalArgumentException("chunkBytes must be positive, but was " + chunkBytes);
      }
    }
  }

  /** A hot partition: which output holds it (an index into the outputs) and its data position. */
  public record HotPartition(int output, long position) {}

  /** What the node allows now. */
  public record Gates(boolean warmOutput, boolean chunkCacheOn, boolean highLoad) {}

  /** The chunks of one output to read, by their first byte, ascending. */
  public record Chunks(String name, long[] starts, int chunkBytes) {
    public long bytes() {
      return (long) starts.length * chunkBytes;
    }
  }

  /**
   * @param skip why nothing is read, or {@link Skip#NONE}
   * @param chunks what to read, output by output
   * @param bytes the chunks' bytes
   * @param leftOutBytes hot chunks' bytes the budget left out
   */
  public record Plan(Skip skip, List<Chunks> chunks, long bytes, long leftOutBytes) {
    static Plan skipped(Skip why) {
      return new Plan(why, List.of(), 0, 0);
    }

    public long chunkCount() {
      long n = 0;
      for (Chunks c : chunks) {
        n += c.starts().length;
      }
      return n;
    }
  }

  /**
   * @param hottestFirst the outputs' hot partitions, the hottest first; repeats allowed
   * @param budgetBytes the most one compaction's warming reads
   * @param chunkCacheBytes the chunk cache's capacity
   */
  public static Plan plan(List<Output> outputs, List<HotPartition> hottestFirst, Gates gates, long budgetBytes,
      long chunkCacheBytes) {
    Skip closed = gate(gates, chunkCacheBytes);
    if (closed != Skip.NONE) {
      return Plan.skipped(closed);
    }
    long budget = Math.min(budgetBytes, chunkCacheBytes / 2);
    long planned = 0;
    long leftOut = 0;
    List<Set<Long>> taken = new ArrayList<>();
    Set<Long> seen = new HashSet<>();
    for (int i = 0; i < outputs.size(); i++) {
      taken.add(new TreeSet<>());
    }
    for (HotPartition hot : hottestFirst) {
      Output out = outputs.get(hot.output());
      if (hot.position() < 0 || hot.position() >= out.dataLength()) {
        continue;
      }
      long start = hot.position() - hot.position() % out.chunkBytes();
      // One key per (output, chunk): outputs are few, their chunk starts below 2^48.
      if (!seen.add(((long) hot.output() << 48) | start)) {
        continue;
      }
      if (planned + out.chunkBytes() <= budget) {
        planned += out.chunkBytes();
        taken.get(hot.output()).add(start);
      } else {
        leftOut += out.chunkBytes();
      }
    }
    List<Chunks> chunks = new ArrayList<>();
    for (int i = 0; i < outputs.size(); i++) {
      if (!taken.get(i).isEmpty()) {
        chunks.add(new Chunks(outputs.get(i).name(),
            taken.get(i).stream().mapToLong(Long::longValue).toArray(), outputs.get(i).chunkBytes()));
      }
    }
    if (chunks.isEmpty() && leftOut == 0) {
      return Plan.skipped(Skip.NO_HOT_PARTITIONS);
    }
    return new Plan(Skip.NONE, List.copyOf(chunks), planned, leftOut);
  }

  /** Why nothing may be warmed now, whatever the outputs hold; {@link Skip#NONE} if warming may go on. */
  public static Skip gate(Gates gates, long chunkCacheBytes) {
    if (!gates.warmOutput()) {
      return Skip.OFF;
    }
    if (!gates.chunkCacheOn() || chunkCacheBytes <= 0) {
      return Skip.NO_CHUNK_CACHE;
    }
    if (gates.highLoad()) {
      return Skip.HIGH_LOAD;
    }
    return Skip.NONE;
  }
}
