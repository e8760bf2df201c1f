package dev.cairn.bench.cli;

import java.util.ArrayList;
import java.util.List;

/**
 * The engine order of each round of a series: a Williams design, so that over a full cycle of
 * rounds each engine runs once in every position (first after a fresh page cache, last after the
 * others' compactions) and right after every other engine equally often.
 *
 * <p>A plain rotation balances the positions but not the neighbours: rotated, the engine listed
 * after another runs right after it in every round, so whatever one run leaves the next (its
 * deleted database's page-cache churn, the machine's warmth) lands on the same pair each time, and
 * on an A/A control listed beside its twin that is a bias the A/A band cannot show.
 *
 * <p>Construction (Williams, 1949): the first row is 0, 1, k-1, 2, k-2, 3, ...; row r adds r to
 * each entry modulo k. With k even those k rows put every ordered pair of engines side by side
 * exactly once; with k odd the k rows and their reverses (2k rows) put every ordered pair side by
 * side exactly twice. The rows are relabelled so that round 0 runs the engines in the listed
 * order; relabelling keeps both balances. Rounds past the cycle start it again.
 */
public final class RoundOrder {
  private RoundOrder() {}

  /** How many rounds make a full cycle for {@code k} engines: k when k is even, 2k when odd. */
  public static int cycle(int k) {
    requirePositive(k);
    return k == 1 ? 1 : (k % 2 == 0 ? k : 2 * k);
  }

  /** The 0-based indexes of the listed engines in the order round {@code round} runs them. */
  public static List<Integer> of(int k, int round) {
    requirePositive(k);
    if (round < 0) {
      throw new IllegalArgumentException("round must be 0 or more, got " + round);
    }
    int[] first = new int[k];
    for (int i = 1, low = 1, high = k - 1; i < k; i++) {
      first[i] = i % 2 == 1 ? low++ : high--;
    }
    // relabel[first[i]] = i, so that row 0 reads 0, 1, 2, ...
    int[] relabel = new int[k];
    for (int i = 0; i < k; i++) {
      relabel[first[i]] = i;
    }
    int r = round % cycle(k);
    boolean reversed = r >= k;
    int shift = r % k;
    List<Integer> order = new ArrayList<>(k);
    for (int i = 0; i < k; i++) {
      int position = reversed ? k - 1 - i : i;
      order.add(relabel[(first[position] + shift) % k]);
    }
    return List.copyOf(order);
  }

  private static void requirePositive(int k) {
    if (k < 1) {
      throw new IllegalArgumentException("a series needs at least one engine, got " + k);
    }
  }
}
