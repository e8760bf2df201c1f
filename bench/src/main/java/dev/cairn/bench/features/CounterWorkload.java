package dev.cairn.bench.features;

import dev.cairn.bench.workload.Keys;
import dev.cairn.bench.workload.ScrambledZipfian;
import dev.cairn.bench.workload.Zipfian;
import java.util.SplittableRandom;

/**
 * The increments every engine applies, drawn once from the seed so that every engine and round
 * gets the same sequence and no generator runs inside a timed loop: increment {@code i} adds
 * {@code delta(i)} (uniform in [1, {@value #MAX_DELTA}]) to counter {@code counter(i)}, drawn from
 * a scrambled Zipfian over the counters at YCSB's skew ({@link ScrambledZipfian}, theta
 * {@value Zipfian#YCSB_THETA}). {@link #expected} is each counter's value once all are applied: the
 * reference every database is checked against.
 */
final class CounterWorkload {
  static final int MAX_DELTA = 10;

  private final byte[][] keys;
  private final int[] counters;
  private final byte[] deltas;
  private final long[] expected;

  private CounterWorkload(byte[][] keys, int[] counters, byte[] deltas, long[] expected) {
    this.keys = keys;
    this.counters = counters;
    this.deltas = deltas;
    this.expected = expected;
  }

  static CounterWorkload draw(int counterCount, int increments, long seed) {
    byte[][] keys = new byte[counterCount][];
    for (int c = 0; c < counterCount; c++) {
      keys[c] = Keys.encode(c);
    }
    ScrambledZipfian chooser = new ScrambledZipfian(counterCount, Zipfian.YCSB_THETA);
    SplittableRandom random = new SplittableRandom(seed);
    int[] counters = new int[increments];
    byte[] deltas = new byte[increments];
    long[] expected = new long[counterCount];
    for (int i = 0; i < increments; i++) {
      counters[i] = (int) chooser.next(random);
      deltas[i] = (byte) (1 + random.nextInt(MAX_DELTA));
      expected[counters[i]] += deltas[i];
    }
    return new CounterWorkload(keys, counters, deltas, expected);
  }

  int counterCount() {
    return keys.length;
  }

  int increments() {
    return counters.length;
  }

  /** Counter {@code c}'s key; keys sort as their ids do ({@link Keys}). */
  byte[] key(int c) {
    return keys[c];
  }

  /** The counter increment {@code i} adds to. */
  int counter(int i) {
    return counters[i];
  }

  /** What increment {@code i} adds. */
  long delta(int i) {
    return deltas[i];
  }

  /** Counter {@code c}'s value once every increment is applied (0 for a counter none reached). */
  long expected(int c) {
    return expected[c];
  }

  /** How many counters at least one increment reaches. */
  int countersReached() {
    int n = 0;
    for (long e : expected) {
      if (e != 0) {
        n++;
      }
    }
    return n;
  }
}
