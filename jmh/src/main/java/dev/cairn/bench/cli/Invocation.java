package dev.cairn.bench.cli;

import dev.cairn.bench.RunConfig;
import java.nio.file.Path;
import java.util.List;

/**
 * A parsed {@code run} or {@code compare} command line.
 *
 * @param sameJvm run every (engine, workload) in the runner's own JVM instead of a fresh one each
 */
public record Invocation(List<String> engines, List<String> workloads, Path out, RunConfig config,
    boolean sameJvm) {}
