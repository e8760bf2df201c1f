package dev.cairn.bench.copies;

import dev.cairn.Cairn;
import dev.cairn.Options;
import dev.cairn.Stats;
import dev.cairn.bench.engine.CairnRecipe.Style;
import dev.cairn.bench.workload.Keys;
import dev.cairn.bench.workload.LoadOrder;
import dev.cairn.bench.workload.Values;
import dev.cairn.config.CompactionSettings;
import java.nio.file.Path;
import java.util.SplittableRandom;

/**
 * One compaction style's database for the checkpoint and backup figures: Cairn at its defaults
 * ({@code Options.defaults()}: 32 MiB memtables, 32 MiB cache, two background threads) but for the
 * compaction, which is the style's own at its defaults. Keys go in a seeded random order, as the
 * runner's load does, so that the levels overlap as a real tree's do; values are incompressible.
 */
final class LoadedDatabase implements AutoCloseable {
  /** The longest wait for compactions to settle before a timed step; past it the step runs anyway. */
  static final long SETTLE_LIMIT_NANOS = 600_000_000_000L;
  private static final long SETTLE_POLL_MILLIS = 100;

  private final Cairn db;
  private final Values values;

  private LoadedDatabase(Cairn db, Values values) {
    this.db = db;
    this.values = values;
  }

  /** Creates the database of {@code style} in {@code dir}, which must not hold one. */
  static LoadedDatabase create(Path dir, Style style, int valueBytes, long seed) {
    Options options = Options.builder().errorIfExists(true).compaction(compaction(style)).build();
    return new LoadedDatabase(Cairn.open(dir, options), new Values(valueBytes, seed));
  }

  /** The style's leveled compaction at the engine's defaults, plans run as soon as they are due. */
  static CompactionSettings compaction(Style style) {
    return CompactionSettings.leveled(switch (style) {
      case TABLE -> CompactionSettings.Table.defaults();
      case BLOCK -> CompactionSettings.Block.defaults();
      case BUFFER -> CompactionSettings.Buffer.defaults();
    });
  }

  Cairn db() {
    return db;
  }

  /** Puts the keys {@code [0, records)} once each in a random order; returns the seconds it took. */
  double load(long records, long seed) {
    return put(new LoadOrder(records, seed), records, seed);
  }

  /**
   * Puts a new value under {@code fraction} of the keys {@code [0, records)}, chosen uniformly at
   * random and each once; returns the seconds it took.
   */
  double overwrite(long records, double fraction, long seed) {
    return put(new LoadOrder(records, seed), Math.max(1, Math.round(records * fraction)), seed);
  }

  private double put(LoadOrder order, long count, long seed) {
    SplittableRandom random = new SplittableRandom(seed);
    long start = System.nanoTime();
    for (long i = 0; i < count; i++) {
      db.put(Keys.encode(order.next()), values.next(random));
    }
    return (System.nanoTime() - start) / 1e9;
  }

  /**
   * Flushes the memtable and waits until no compaction runs or is due, so that a timed step
   * measures itself rather than a flush or a compaction the load left; returns the seconds it
   * took, or -1 when compactions were still owed at {@link #SETTLE_LIMIT_NANOS}.
   */
  double settle() throws InterruptedException {
    long start = System.nanoTime();
    db.flush();
    while (busy(db.stats())) {
      if (System.nanoTime() - start > SETTLE_LIMIT_NANOS) {
        return -1;
      }
      Thread.sleep(SETTLE_POLL_MILLIS);
    }
    return (System.nanoTime() - start) / 1e9;
  }

  /** What the runner's engine reports as compactions pending: one running, a memtable to flush, or a level due. */
  private static boolean busy(Stats s) {
    return s.compaction().running() > 0 || s.memtable().immutables() > 0
        || s.levels().stream().anyMatch(l -> l.score() >= 1);
  }

  /**
   * Bytes of the tables the current version names, what a checkpoint or a backup copies: the
   * levels' files (block compaction's dead bytes included) and the compaction buffer's own.
   */
  long tableBytes() {
    Stats s = db.stats();
    return s.totalTableBytes() + s.buffer().bytes();
  }

  @Override
  public void close() {
    db.close();
  }
}
