package dev.cairn.cassandra.warm;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * Which chunks of a compaction's output to read into the chunk cache: pure, the outputs' hot
 * partitions in, the chunks out. Cassandra-free so that every rule is tested shape-in/plan-out.
 *
 * <p>The rules:
 *
 * <ol>
 *   <li>Nothing is read when warming is off, when the node has no chunk cache, when the table's
 *       load is high (warming reads would compete with the clients' for the device), or when no
 *       output partition was recently read.
 *   <li>A hot partition's chunk is the one holding its first byte: the chunk its point reads
 *       load first. A partition longer than a chunk is warmed in its first chunk only.
 *   <li>Chunks are taken output by output, each output's in file order (the device reads them
 *       nearly sequentially), each chunk once, until the next chunk would pass the budget: the
 *       smaller of the per-compaction budget and half the chunk cache, so that one compaction's
 *       warming never evicts more than half of what the clients' reads put there.
 * </ol>
 */
public final class WarmPlanner {
  private WarmPlanner() {}

  /** Why a compaction's output was not warmed; {@link #NONE} when it was planned. */
  public enum Skip {
    NONE,
    OFF,
    NO_CHUNK_CACHE,
    HIGH_LOAD,
    NO_HOT_PARTITIONS
  }

  /**
   * One output SSTable.
   *
   * @param name the output's data file, for the plan and the log
   * @param hotPositions data-file positions of its recently read partitions, any order, repeats allowed
   * @param chunkBytes the chunk-cache chunk of its data file (positive)
   * @param dataLength the data file's length; positions at or past it are ignored
   */
  public record Output(String name, long[] hotPositions, int chunkBytes, long dataLength) {
    public Output {
      Objects.requireNonNull(name, "name");
      Objects.requireNonNull(hotPositions, "hotPositions");
      if (chunkBytes <= 0) {
        throw new IllegalArgumentException("chunkBytes must be positive, but was " + chunkBytes);
      }
    }
  }

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
   * @param budgetBytes the most one compaction's warming reads
   * @param chunkCacheBytes the chunk cache's capacity
   */
  public static Plan plan(List<Output> outputs, Gates gates, long budgetBytes, long chunkCacheBytes) {
    if (!gates.warmOutput()) {
      return Plan.skipped(Skip.OFF);
    }
    if (!gates.chunkCacheOn() || chunkCacheBytes <= 0) {
      return Plan.skipped(Skip.NO_CHUNK_CACHE);
    }
    if (gates.highLoad()) {
      return Plan.skipped(Skip.HIGH_LOAD);
    }
    long budget = Math.min(budgetBytes, chunkCacheBytes / 2);
    long planned = 0;
    long leftOut = 0;
    List<Chunks> chunks = new ArrayList<>();
    for (Output out : outputs) {
      long[] starts = chunkStarts(out);
      int fit = 0;
      while (fit < starts.length && planned + out.chunkBytes() <= budget) {
        planned += out.chunkBytes();
        fit++;
      }
      leftOut += (long) (starts.length - fit) * out.chunkBytes();
      if (fit > 0) {
        chunks.add(new Chunks(out.name(), Arrays.copyOf(starts, fit), out.chunkBytes()));
      }
    }
    if (chunks.isEmpty() && leftOut == 0) {
      return Plan.skipped(Skip.NO_HOT_PARTITIONS);
    }
    return new Plan(Skip.NONE, List.copyOf(chunks), planned, leftOut);
  }

  /** The distinct chunk starts holding the output's hot partitions' first bytes, ascending. */
  static long[] chunkStarts(Output out) {
    long[] starts = Arrays.stream(out.hotPositions())
        .filter(p -> p >= 0 && p < out.dataLength())
        .map(p -> p - p % out.chunkBytes())
        .sorted()
        .distinct()
        .toArray();
    return starts;
  }
}
