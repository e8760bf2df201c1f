package dev.cairn.bench.cli;

import dev.cairn.bench.RunConfig;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * A parsed {@code run} or {@code compare} command line.
 *
 * @param sameJvm run every (engine, workload) in the runner's own JVM instead of a fresh one each
 * @param rounds how many times {@code compare} runs the whole comparison ({@code --repeat}), each
 *     round with the engine order rotated by one
 */
public record Invocation(List<String> engines, List<String> workloads, Path out, RunConfig config,
    boolean sameJvm, int rounds) {

  /**
   * Round {@code round}'s engine order (0-based): the listed order rotated left by {@code round},
   * so that over as many rounds as engines each engine runs once in every position (first after
   * the load of a fresh page cache, last after the others' compactions).
   */
  public List<String> enginesOfRound(int round) {
    List<String> order = new ArrayList<>(engines);
    Collections.rotate(order, -(round % engines.size()));
    return List.copyOf(order);
  }
}
