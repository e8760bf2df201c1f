package dev.cairn.bench.workload;

import dev.cairn.bench.RunConfig;
import java.util.ArrayList;
import java.util.List;

/**
 * The phases that may follow a measured phase (docs/benchmarks.md, {@code --mixed-seconds},
 * {@code --read-seconds}, {@code --scan-seconds}), for BlockDB's figures: what a compaction style left behind is judged
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

  /** Scans of 1-100 records from uniform start keys (BlockDB's scan figure, without writers). */
  public static List<Worker> scans(RunConfig c, KeySpace keys) {
    List<Worker> clients = new ArrayList<>();
    for (int i = 0; i < c.readers(); i++) {
      clients.add(Worker.closed((ops, r) -> ops.scan(r.nextLong(keys.size()), 1 + r.nextInt(Workloads.MAX_SCAN))));
    }
    return clients;
  }
}
