package dev.cairn.cassandra.warm;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.cairn.cassandra.warm.WarmPlanner.Gates;
import dev.cairn.cassandra.warm.WarmPlanner.Output;
import dev.cairn.cassandra.warm.WarmPlanner.Plan;
import dev.cairn.cassandra.warm.WarmPlanner.Skip;
import java.util.List;
import org.junit.jupiter.api.Test;

class WarmPlannerTest {
  private static final Gates OPEN = new Gates(true, true, false);
  private static final long MIB = 1 << 20;

  @Test
  void hotPartitionsBecomeTheirFirstChunksEachOnceInFileOrder() {
    Output out = new Output("a-Data.db", new long[] {40_000, 100, 8_191, 8_192, 100, 70_000}, 8_192, 80_000);

    Plan plan = WarmPlanner.plan(List.of(out), OPEN, 64 * MIB, 512 * MIB);

    assertEquals(Skip.NONE, plan.skip());
    assertArrayEquals(new long[] {0, 8_192, 32_768, 65_536}, plan.chunks().get(0).starts());
    assertEquals(4 * 8_192, plan.bytes());
    assertEquals(0, plan.leftOutBytes());
  }

  @Test
  void positionsPastTheDataFileAreIgnored() {
    Output out = new Output("a-Data.db", new long[] {-1, 5_000, 9_000}, 4_096, 6_000);

    Plan plan = WarmPlanner.plan(List.of(out), OPEN, 64 * MIB, 512 * MIB);

    assertArrayEquals(new long[] {4_096}, plan.chunks().get(0).starts());
  }

  @Test
  void theBudgetCutsOutputByOutputAndCountsWhatItLeftOut() {
    Output first = new Output("a", new long[] {0, 16_384, 32_768}, 16_384, MIB);
    Output second = new Output("b", new long[] {0, 16_384}, 16_384, MIB);

    Plan plan = WarmPlanner.plan(List.of(first, second), OPEN, 4 * 16_384, 512 * MIB);

    assertEquals(2, plan.chunks().size());
    assertArrayEquals(new long[] {0, 16_384, 32_768}, plan.chunks().get(0).starts());
    assertArrayEquals(new long[] {0}, plan.chunks().get(1).starts());
    assertEquals(4 * 16_384, plan.bytes());
    assertEquals(16_384, plan.leftOutBytes());
    assertEquals(4, plan.chunkCount());
  }

  @Test
  void oneCompactionWarmsAtMostHalfTheChunkCache() {
    long[] hot = new long[100];
    for (int i = 0; i < hot.length; i++) {
      hot[i] = i * 4_096L;
    }
    Output out = new Output("a", hot, 4_096, MIB);

    Plan plan = WarmPlanner.plan(List.of(out), OPEN, 64 * MIB, 80 * 4_096);

    assertEquals(40 * 4_096, plan.bytes());
    assertEquals(60 * 4_096, plan.leftOutBytes());
  }

  @Test
  void aBudgetBelowOneChunkReadsNothingButSaysWhatItLeftOut() {
    Output out = new Output("a", new long[] {0}, 65_536, MIB);

    Plan plan = WarmPlanner.plan(List.of(out), OPEN, 4_096, 512 * MIB);

    assertEquals(Skip.NONE, plan.skip());
    assertEquals(0, plan.chunkCount());
    assertEquals(65_536, plan.leftOutBytes());
  }

  @Test
  void eachGateSkipsWithItsReasonInOrder() {
    List<Output> hot = List.of(new Output("a", new long[] {0}, 4_096, MIB));

    assertEquals(Skip.OFF, WarmPlanner.plan(hot, new Gates(false, false, true), MIB, MIB).skip());
    assertEquals(Skip.NO_CHUNK_CACHE, WarmPlanner.plan(hot, new Gates(true, false, true), MIB, MIB).skip());
    assertEquals(Skip.NO_CHUNK_CACHE, WarmPlanner.plan(hot, OPEN, MIB, 0).skip());
    assertEquals(Skip.HIGH_LOAD, WarmPlanner.plan(hot, new Gates(true, true, true), MIB, MIB).skip());
    assertEquals(Skip.NO_HOT_PARTITIONS,
        WarmPlanner.plan(List.of(new Output("a", new long[0], 4_096, MIB)), OPEN, MIB, MIB).skip());
  }

  @Test
  void aChunkSizeThatIsNotPositiveIsRefusedByName() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> new Output("a", new long[0], 0, MIB));
    assertEquals("chunkBytes must be positive, but was 0", e.getMessage());
  }
}
