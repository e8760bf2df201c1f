package dev.cairn.bench.workload;

import dev.cairn.bench.RunConfig;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.function.ToIntFunction;

/**
 * The workloads the runner knows, by command-line name, each citing the experiment it
 * reproduces (docs/benchmarks.md describes them). Writers that model the papers' background
 * updates are paced at {@code --write-rate}; readers and YCSB clients are closed loops.
 */
public final class Workloads {
  /** Longest scan, as in YCSB workload E and BlockDB's scan runs. */
  public static final int MAX_SCAN = 100;
  /** Records one rangehot-scan query reads: the paper's 100 KB range of 1 KB records. */
  static final int RANGE_QUERY_RECORDS = 100;

  /** Periodic's operation mix: reads, scans, the rest writes. */
  static final double PERIODIC_READ = 0.7;
  static final double PERIODIC_SCAN = 0.1;

  private static final Map<String, Workload> BY_NAME = new LinkedHashMap<>();

  static {
    add(new Workload("load", "BlockDB section 5 (write-only): records inserted in random order", false,
        (c, keys) -> List.of(loader(new LoadOrder(c.records(), c.seed())))));
    add(new Workload("update", "BlockDB section 5 (space amplification): uniform updates of loaded data", true,
        (c, keys) -> List.of(Worker.closed((ops, r) -> ops.write(r.nextLong(keys.records()))))));
    add(new Workload("rangehot", "LSbM-tree section 6.1: paced uniform updates, 98% of reads in a 15% hot range",
        true, (c, keys) -> withWriter(c, uniformUpdates(keys), readers(c, hotRange(c, keys)))));
    add(new Workload("uniform", "paced uniform updates, uniform reads over every key (no hot set: what a cache"
        + " of part of the data can hold is its share)", true,
        (c, keys) -> withWriter(c, uniformUpdates(keys), readers(c, r -> r.nextLong(keys.records())))));
    add(new Workload("zipfian", "LSbM-tree section 6 / dLSM: paced uniform updates, scrambled Zipfian 0.99 reads",
        true, (c, keys) -> withWriter(c, uniformUpdates(keys),
            readers(c, new ScrambledZipfian(keys.records(), Zipfian.YCSB_THETA)))));
    add(new Workload("rangehot-apart",
        "rangehot's reads over paced uniform updates of the keys outside the hot range: the new data is never"
            + " what is read, so caching it as it is written only takes room", true,
        (c, keys) -> {
          HotRange hot = hotRange(c, keys);
          return withWriter(c, outside(keys, hot), readers(c, hot));
        }));
    add(new Workload("latest-rangehot",
        "dLSM section 5 (Latest RangeHot): paced sweeping updates, 98% of reads among the most recent 15%", true,
        (c, keys) -> withWriter(c, sweepingUpdates(keys), readers(c, behindSweep(keys,
            new HotRange(keys.records(), 0, hotCount(c, keys), c.hotProbability()))))));
    add(new Workload("latest-zipfian",
        "dLSM section 5 (Latest Zipfian): paced sweeping updates, Zipfian 0.99 reads by recency", true,
        (c, keys) -> withWriter(c, sweepingUpdates(keys), readers(c, behindSweep(keys,
            new Zipfian(keys.records(), Zipfian.YCSB_THETA))))));
    add(new Workload("latest-uniform",
        "dLSM section 5 (Latest Uniform): paced sweeping updates, uniform reads over the most recent half", true,
        (c, keys) -> withWriter(c, sweepingUpdates(keys), readers(c, behindSweep(keys,
            r -> r.nextLong(Math.max(1, keys.records() / 2)))))));
    add(new Workload("latest-rangehot-quiet",
        "dLSM section VII-B3 (dynamic): latest-rangehot whose writes stop a third into the run; reads go on"
            + " while compactions (aggressive ones, where the engine has them) drain the upper levels", true,
        (c, keys) -> {
          List<Worker> workers = new ArrayList<>();
          workers.add(Worker.pacedFor(c.writeRate(), c.seconds() / 3, (ops, r) -> ops.write(keys.claimSweep())));
          workers.addAll(readers(c, behindSweep(keys, new HotRange(keys.records(), 0, hotCount(c, keys),
              c.hotProbability()))));
          return workers;
        }));
    add(new Workload("rangehot-scan",
        "LSbM-tree section 6.4: paced uniform updates, range queries of " + RANGE_QUERY_RECORDS
            + " records from starts in the 15% hot range (98% of them)",
        true, (c, keys) -> withWriter(c, uniformUpdates(keys),
            scanners(c, hotRange(c, keys), r -> RANGE_QUERY_RECORDS))));
    add(new Workload("readonly-rangehot", "LSbM-tree section 6.1 baseline: rangehot reads, no writes (hit-ratio ceiling)",
        true, (c, keys) -> readers(c, hotRange(c, keys))));
    addYcsb("ycsb-a", "update heavy: 50% reads, 50% updates", 0.5, 0, 0.5, 0, 0);
    addYcsb("ycsb-b", "read mostly: 95% reads, 5% updates", 0.95, 0, 0.05, 0, 0);
    addYcsb("ycsb-c", "read only", 1.0, 0, 0, 0, 0);
    addYcsb("ycsb-d", "read latest: 95% reads of recent inserts, 5% inserts", 0, 0.95, 0, 0.05, 0);
    addYcsb("ycsb-e", "short ranges: 95% scans of 1-100, 5% inserts", 0, 0, 0, 0.05, 0.95);
    addYcsb("ycsb-f", "read-modify-write: 50% reads, 50% read-modify-writes", 0.5, 0, 0, 0, 0);
    add(new Workload("periodic",
        "DLC section 6: offered load alternating high and low (500 s / 100 s times --scale); 70% gets, 10% scans, 20% writes",
        true, Workloads::periodic));
    add(new Workload("scan", "BlockDB section 5 (scan): scans of 1-100 records from scrambled Zipfian starts under paced updates",
        true, (c, keys) -> withWriter(c, uniformUpdates(keys),
            scanners(c, new ScrambledZipfian(keys.records(), Zipfian.YCSB_THETA), r -> 1 + r.nextInt(MAX_SCAN)))));
  }

  private Workloads() {}

  private static void add(Workload w) {
    BY_NAME.put(w.name(), w);
  }

  public static List<String> names() {
    return List.copyOf(BY_NAME.keySet());
  }

  public static boolean exists(String name) {
    return BY_NAME.containsKey(name);
  }

  public static Workload get(String name) {
    Workload w = BY_NAME.get(name);
    if (w == null) {
      throw new IllegalArgumentException("unknown workload '" + name + "'; valid: " + String.join(", ", names()));
    }
    return w;
  }

  /** The hot range of the rangehot family: {@code --hot-percent} of the keys, centred. */
  public static HotRange hotRange(RunConfig c, KeySpace keys) {
    return HotRange.centred(keys.records(), c.hotFraction(), c.hotProbability());
  }

  private static long hotCount(RunConfig c, KeySpace keys) {
    return Math.max(1, Math.min(keys.records(), Math.round(keys.records() * c.hotFraction())));
  }

  private static Worker loader(LoadOrder order) {
    return (ops, random) -> {
      long id = order.next();
      if (id < 0) {
        return false;
      }
      ops.write(id);
      return true;
    };
  }

  private static KeyChooser uniformUpdates(KeySpace keys) {
    return r -> r.nextLong(keys.records());
  }

  /** Uniform over the keys outside {@code hot}. */
  static KeyChooser outside(KeySpace keys, HotRange hot) {
    long cold = keys.records() - hot.hotCount();
    if (cold <= 0) {
      throw new IllegalArgumentException("the hot range holds every key: no key outside it to update");
    }
    return r -> {
      long id = r.nextLong(cold);
      return id < hot.hotStart() ? id : id + hot.hotCount();
    };
  }

  private static KeyChooser sweepingUpdates(KeySpace keys) {
    return r -> keys.claimSweep();
  }

  /** Ids at a drawn distance behind the sweeping writer: distance 0 is the newest write. */
  private static KeyChooser behindSweep(KeySpace keys, KeyChooser distance) {
    return r -> keys.behindSweep(distance.next(r));
  }

  private static List<Worker> readers(RunConfig c, KeyChooser chooser) {
    List<Worker> workers = new ArrayList<>();
    for (int i = 0; i < c.readers(); i++) {
      workers.add(Worker.closed((ops, r) -> ops.read(chooser.next(r))));
    }
    return workers;
  }

  /** {@code --readers} closed-loop scanners, each scan from a key {@code start} picks, of {@code length} records. */
  private static List<Worker> scanners(RunConfig c, KeyChooser start, ToIntFunction<SplittableRandom> length) {
    List<Worker> workers = new ArrayList<>();
    for (int i = 0; i < c.readers(); i++) {
      workers.add(Worker.closed((ops, r) -> ops.scan(start.next(r), length.applyAsInt(r))));
    }
    return workers;
  }

  /** Adds one writer paced at {@code --write-rate} in front of {@code others}. */
  private static List<Worker> withWriter(RunConfig c, KeyChooser writes, List<Worker> others) {
    List<Worker> workers = new ArrayList<>();
    workers.add(Worker.paced(c.writeRate(), (ops, r) -> ops.write(writes.next(r))));
    workers.addAll(others);
    return workers;
  }

  /**
   * YCSB core workload: {@code --readers} closed-loop clients; request keys scrambled Zipfian
   * over the loaded records, "latest" reads Zipfian by recency over the inserted keys, inserts
   * append new keys. Fractions not given to read, latest, update, insert and scan are
   * read-modify-writes (workload F).
   */
  private static void addYcsb(String name, String what, double read, double readLatest, double update,
      double insert, double scan) {
    add(new Workload(name, "YCSB core workload " + name.substring(5).toUpperCase() + " (BlockDB section 5): " + what,
        true, (c, keys) -> {
          KeyChooser request = new ScrambledZipfian(keys.records(), Zipfian.YCSB_THETA);
          Zipfian recency = new Zipfian(keys.records(), Zipfian.YCSB_THETA);
          List<Worker> clients = new ArrayList<>();
          for (int i = 0; i < c.readers(); i++) {
            clients.add(Worker.closed((ops, r) -> {
              double u = r.nextDouble();
              if (u < read) {
                ops.read(request.next(r));
              } else if ((u -= read) < readLatest) {
                ops.read(Math.max(0, keys.size() - 1 - recency.next(r)));
              } else if ((u -= readLatest) < update) {
                ops.write(request.next(r));
              } else if ((u -= update) < insert) {
                ops.write(keys.claimInsert());
              } else if ((u -= insert) < scan) {
                ops.scan(request.next(r), 1 + r.nextInt(MAX_SCAN));
              } else {
                long id = request.next(r);
                ops.read(id);
                ops.write(id);
              }
            }));
          }
          return clients;
        }));
  }

  /** Whether {@code elapsed} seconds into periodic's measured phase fall in a high phase. */
  public static boolean periodicHighPhase(RunConfig c, double elapsed) {
    return elapsed % periodicPeriodSeconds(c) < periodicHighSeconds(c);
  }

  /** Seconds of one high phase of periodic: DLC's 500 s, scaled. */
  static double periodicHighSeconds(RunConfig c) {
    return 500 * c.periodScale();
  }

  /** Seconds of one period of periodic (a high phase and the low phase after it: 500 + 100 s, scaled). */
  public static double periodicPeriodSeconds(RunConfig c) {
    return 600 * c.periodScale();
  }

  /** DLC's periodic load: every client is paced at its share of the phase's offered rate. */
  private static List<Worker> periodic(RunConfig c, KeySpace keys) {
    KeyChooser hot = new ScrambledZipfian(keys.records(), Zipfian.YCSB_THETA);
    List<Worker> clients = new ArrayList<>();
    for (int i = 0; i < c.readers(); i++) {
      clients.add(new Worker() {
        @Override
        public double rate(double elapsed) {
          return (periodicHighPhase(c, elapsed) ? c.highOps() : c.lowOps()) / c.readers();
        }

        @Override
        public boolean step(Ops ops, SplittableRandom r) {
          double u = r.nextDouble();
          if (u < PERIODIC_READ) {
            ops.read(hot.next(r));
          } else if (u < PERIODIC_READ + PERIODIC_SCAN) {
            ops.scan(hot.next(r), 1 + r.nextInt(MAX_SCAN));
          } else {
            ops.write(r.nextLong(keys.records()));
          }
          return true;
        }
      });
    }
    return clients;
  }
}
