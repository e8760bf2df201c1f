package dev.cairn.bench.features;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The engines {@code features} measures, by name, and the order each round runs them in.
 *
 * <p>{@code cairn-aa} is {@code cairn} again, the very same configuration under a second name: the
 * A/A control, whose ratio to {@code cairn} is the spread between two engines doing the same work.
 *
 * <p>Round {@code r} (from 0) runs the engines rotated to start at engine {@code r mod n}, so that
 * no engine always runs first, on the JVM as the previous command left it, or always after the
 * same engine warmed the JIT and filled the page cache. With the default three rounds and four
 * engines, {@code rocksdb-best} never runs first and {@code cairn-aa} runs right after {@code cairn}
 * in two rounds of three: a rotation balances positions over n rounds, not neighbours.
 */
final class CounterEngines {
  static final String CAIRN = "cairn";
  static final String CAIRN_AA = "cairn-aa";
  static final String ROCKSDB = "rocksdb";
  static final String ROCKSDB_BEST = "rocksdb-best";

  /** Every engine in its listed order: the reference first, then its A/A twin, then the peers. */
  static final List<String> NAMES = List.of(CAIRN, CAIRN_AA, ROCKSDB, ROCKSDB_BEST);

  private CounterEngines() {}

  /** The engines in the order round {@code round} (from 0) runs them: {@link #NAMES} rotated by {@code round mod n}. */
  static List<String> order(int round) {
    return rotated(NAMES, round);
  }

  /** {@code names} rotated to start at {@code names.get(round mod n)}. */
  static <T> List<T> rotated(List<T> names, int round) {
    if (round < 0) {
      throw new IllegalArgumentException("round must be 0 or more, got " + round);
    }
    List<T> order = new ArrayList<>(names.size());
    for (int i = 0; i < names.size(); i++) {
      order.add(names.get((round + i) % names.size()));
    }
    return List.copyOf(order);
  }

  /**
   * Opens {@code engine}'s database in {@code dir} (created, with its parents: RocksDB makes only
   * the last directory) with a block cache of {@code cacheBytes}.
   */
  static CounterStore open(String engine, Path dir, long cacheBytes) throws IOException {
    Files.createDirectories(dir.getParent());
    return switch (engine) {
      case CAIRN, CAIRN_AA -> new CairnCounters(dir, cacheBytes);
      case ROCKSDB -> RocksCounters.defaults(dir, cacheBytes);
      case ROCKSDB_BEST -> RocksCounters.best(dir, cacheBytes);
      default -> throw new IllegalArgumentException("no counter engine '" + engine + "' (valid: "
          + String.join(", ", NAMES) + ")");
    };
  }
}
