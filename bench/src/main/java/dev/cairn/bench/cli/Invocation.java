package dev.cairn.bench.cli;

import dev.cairn.bench.RunConfig;
import java.nio.file.Path;
import java.util.List;

/**
 * A parsed {@code run} or {@code compare} command line.
 *
 * @param sameJvm run every (engine, workload) in the runner's own JVM instead of a fresh one each
 * @param rounds how many times {@code compare} runs the whole comparison ({@code --repeat}), each
 *     round in its own engine order ({@link RoundOrder})
 */
public record Invocation(List<String> engines, List<String> workloads, Path out, RunConfig config,
    boolean sameJvm, int rounds) {

  /**
   * Round {@code round}'s engine order (0-based; round 0 is the listed order): over a full cycle
   * of rounds each engine runs in every position, and right after every other engine, equally
   * often ({@link RoundOrder}).
   */
  public List<String> enginesOfRound(int round) {
    return RoundOrder.of(engines.size(), round).stream().map(engines::get).toList();
  }
}
