package dev.cairn.bench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** The Williams design of a series' rounds: positions and neighbours balanced over a cycle. */
class RoundOrderTest {

  @Test
  void roundZeroRunsTheListedOrder() {
    for (int k = 1; k <= 9; k++) {
      assertEquals(IntStream.range(0, k).boxed().toList(), RoundOrder.of(k, 0), "k=" + k);
    }
  }

  @Test
  void everyRoundRunsEveryEngineOnce() {
    for (int k = 1; k <= 9; k++) {
      for (int r = 0; r < RoundOrder.cycle(k); r++) {
        assertEquals(k, new HashSet<>(RoundOrder.of(k, r)).size(), "k=" + k + " round " + r);
      }
    }
  }

  @Test
  void overACycleEachEngineHoldsEachPositionEquallyOften() {
    for (int k = 1; k <= 9; k++) {
      int cycle = RoundOrder.cycle(k);
      int[][] count = new int[k][k];
      for (int r = 0; r < cycle; r++) {
        List<Integer> order = RoundOrder.of(k, r);
        for (int p = 0; p < k; p++) {
          count[order.get(p)][p]++;
        }
      }
      for (int e = 0; e < k; e++) {
        for (int p = 0; p < k; p++) {
          assertEquals(cycle / k, count[e][p], "k=" + k + " engine " + e + " position " + p);
        }
      }
    }
  }

  @Test
  void overACycleEachEngineRunsRightAfterEachOtherEquallyOften() {
    for (int k = 2; k <= 9; k++) {
      int cycle = RoundOrder.cycle(k);
      int[][] after = new int[k][k];
      for (int r = 0; r < cycle; r++) {
        List<Integer> order = RoundOrder.of(k, r);
        for (int p = 1; p < k; p++) {
          after[order.get(p - 1)][order.get(p)]++;
        }
      }
      int expected = k % 2 == 0 ? 1 : 2;
      for (int a = 0; a < k; a++) {
        for (int b = 0; b < k; b++) {
          assertEquals(a == b ? 0 : expected, after[a][b], "k=" + k + ": " + b + " right after " + a);
        }
      }
    }
  }

  @Test
  void aTwinListedBesideItsEngineDoesNotAlwaysFollowIt() {
    // Six engines, three rounds (slow1's shape of series): the control listed second runs right
    // after the first in at most one of the rounds, where a rotation put it there in all three.
    Set<Integer> roundsFollowing = new HashSet<>();
    for (int r = 0; r < 3; r++) {
      List<Integer> order = RoundOrder.of(6, r);
      if (order.indexOf(1) == order.indexOf(0) + 1) {
        roundsFollowing.add(r);
      }
    }
    assertEquals(Set.of(0), roundsFollowing);
  }

  @Test
  void roundsPastTheCycleStartItAgainAndNonsenseIsRefused() {
    assertEquals(RoundOrder.of(5, 3), RoundOrder.of(5, 3 + RoundOrder.cycle(5)));
    assertThrows(IllegalArgumentException.class, () -> RoundOrder.of(0, 0));
    assertThrows(IllegalArgumentException.class, () -> RoundOrder.of(3, -1));
  }
}
