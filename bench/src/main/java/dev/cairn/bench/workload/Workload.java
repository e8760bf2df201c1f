package dev.cairn.bench.workload;

import dev.cairn.bench.RunConfig;
import java.util.List;
import java.util.function.BiFunction;

/**
 * A named workload.
 *
 * @param name the command-line name
 * @param source the paper and section it reproduces, for the report
 * @param preload whether {@code records} records are loaded (unmeasured) before the measured phase
 * @param workers the threads of the measured phase, made fresh for each run
 */
public record Workload(
    String name,
    String source,
    boolean preload,
    BiFunction<RunConfig, KeySpace, List<Worker>> workers) {}
