package dev.cairn.bench.workload;

import dev.cairn.bench.RunConfig;
import java.util.ArrayList;
import java.util.List;

/**
 * The phases that may follow a measured phase (docs/benchmarks.md, {@code --mixed-seconds},
 * {@code --read-seconds}, {@code --scan-seconds}, {@code --ycsb-mix-seconds}), for BlockDB's figures: what a compaction style left behind is judged
 * by the reads and scans that come after it (block-cache misses of a mixed phase, scan
 * throughput). Each draws keys uniformly over every id in use, so that no cache-friendly skew
 * hides the tree's shape; each runs {@code --readers} closed-loop clients.
 */
public final class FollowUpWorkloads {
  private FollowUpWorkloads() {}

  /** Like YCSB A but uniform: each request is a read or an update of a uniform key, half and half. */
  public static List<Worker> mixed(RunConfig c, KeySpace keys) {
    List<Worker> clients = new ArrayList<>();
    for (int i = 0; i < c.readers(); i++) {
      clients.add(Worker.closed((ops, r) -> {
        long id = r.nextLong(keys.size());
        if (r.nextBoolean()) {
          ops.read(id);
        } else {
          ops.write(id);
        }
      }));
    }
    return clients;
  }

  /** Point reads of uniform keys, nothing else (BlockDB's read-only figure after a load). */
  public static List<Worker> reads(RunConfig c, KeySpace keys) {
    List<Worker> clients = new ArrayList<>();
    for (int i = 0; i < c.readers(); i++) {
      clients.add(Worker.closed((ops, r) -> ops.read(r.nextLong(keys.size()))));
    }
    return clients;
  }

  /**
   * One of BlockDB's mixes on the loaded tree ({@link BlockDbMix}): {@code --readers} closed-loop
   * clients, reading keys Zipfian over the loaded records ({@link BlockDbMix#THETA}, scrambled
   * so that the popular keys spread over the key space) and updating uniform loaded ones.
   */
  public static List<Worker> mix(RunConfig c, KeySpace keys, BlockDbMix mix) {
    KeyChooser popular = new ScrambledZipfian(keys.records(), BlockDbMix.THETA);
    double writeShare = mix.writeShare();
    List<Worker> clients = new ArrayList<>();
    for (int i = 0; i < c.readers(); i++) {
      clients.add(Worker.closed((ops, r) -> {
        if (r.nextDouble() < writeShare) {
          ops.write(r.nextLong(keys.records()));
        } else if (r.nextBoolean()) {
          ops.read(popular.next(r));
        } else {
          ops.scan(popular.next(r), 1 + r.nextInt(Workloads.MAX_SCAN));
        }
      }));
    }
    return clients;
  }

  /** Scans of 1-100 records from uniform start keys (BlockDB's scan figure, without writers). */
  public static List<Worker> scans(RunConfig c, KeySpace keys) {
    List<Worker> clients = new ArrayList<>();
    for (int i = 0; i < c.readers(); i++) {
      clients.add(Worker.closed((ops, r) -> ops.scan(r.nextLong(keys.size()), 1 + r.nextInt(Workloads.MAX_SCAN))));
    }
    return clients;
  }
}
