package dev.cairn.cassandra.warm;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.cairn.cassandra.warm.WarmPlanner.Gates;
import dev.cairn.cassandra.warm.WarmPlanner.HotPartition;
import dev.cairn.cassandra.warm.WarmPlanner.Output;
import dev.cairn.cassandra.warm.WarmPlanner.Plan;
import dev.cairn.cassandra.warm.WarmPlanner.Skip;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class WarmPlannerTest {
  private static final Gates OPEN = new Gates(true, true, false);
  private static final long MIB = 1 << 20;

  private static List<HotPartition> hot(int output, long... positions) {
    List<HotPartition> l = new ArrayList<>();
    for (long p : positions) {
      l.add(new HotPartition(output, p));
    }
    return l;
  }

  @Test
  void hotPartitionsBecomeTheirFirstChunksEachOnceReadInFileOrder() {
    Output out = new Output("a-Data.db", 8_192, 80_000);

    Plan plan = WarmPlanner.plan(List.of(out), hot(0, 40_000, 100, 8_191, 8_192, 100, 70_000), OPEN, 64 * MIB,
        512 * MIB);

    assertEquals(Skip.NONE, plan.skip());
    assertArrayEquals(new long[] {0, 8_192, 32_768, 65_536}, plan.chunks().get(0).starts());
    assertEquals(4 * 8_192, plan.bytes());
    assertEquals(0, plan.leftOutBytes());
  }

  @Test
  void positionsOutsideTheDataFileAreIgnored() {
    Output out = new Output("a-Data.db", 4_096, 6_000);

    Plan plan = WarmPlanner.plan(List.of(out), hot(0, -1, 5_000, 9_000), OPEN, 64 * MIB, 512 * MIB);

    assertArrayEquals(new long[] {4_096}, plan.chunks().get(0).starts());
  }

  @Test
  void theBudgetKeepsTheHottestChunksAcrossOutputsAndCountsWhatItLeftOut() {
    Output first = new Output("a", 16_384, MIB);
    Output second = new Output("b", 16_384, MIB);
    List<HotPartition> hottestFirst = new ArrayList<>();
    hottestFirst.addAll(hot(1, 16_384));
    hottestFirst.addAll(hot(0, 32_768, 0));
    hottestFirst.addAll(hot(1, 0));
    hottestFirst.addAll(hot(0, 16_384)); // the coldest: over the budget

    Plan plan = WarmPlanner.plan(List.of(first, second), hottestFirst, OPEN, 4 * 16_384, 512 * MIB);

    assertEquals(2, plan.chunks().size());
    assertEquals("a", plan.chunks().get(0).name());
    assertArrayEquals(new long[] {0, 32_768}, plan.chunks().get(0).starts());
    assertArrayEquals(new long[] {0, 16_384}, plan.chunks().get(1).starts());
    assertEquals(4 * 16_384, plan.bytes());
    assertEquals(16_384, plan.leftOutBytes());
    assertEquals(4, plan.chunkCount());
  }

  @Test
  void aChunkHeldBySeveralHotPartitionsIsChargedOnce() {
    Output out = new Output("a", 16_384, MIB);

    Plan plan = WarmPlanner.plan(List.of(out), hot(0, 10, 20, 30, 16_400), OPEN, 2 * 16_384, 512 * MIB);

    assertArrayEquals(new long[] {0, 16_384}, plan.chunks().get(0).starts());
    assertEquals(0, plan.leftOutBytes());
  }

  @Test
  void oneCompactionWarmsAtMostHalfTheChunkCache() {
    long[] positions = new long[100];
    for (int i = 0; i < positions.length; i++) {
      positions[i] = i * 4_096L;
    }
    Output out = new Output("a", 4_096, MIB);

    Plan plan = WarmPlanner.plan(List.of(out), hot(0, positions), OPEN, 64 * MIB, 80 * 4_096);

    assertEquals(40 * 4_096, plan.bytes());
    assertEquals(60 * 4_096, plan.leftOutBytes());
    assertEquals(0, plan.chunks().get(0).starts()[0], "the hottest (here the first) chunks are the ones kept");
  }

  @Test
  void aBudgetBelowOneChunkReadsNothingButSaysWhatItLeftOut() {
    Output out = new Output("a", 65_536, MIB);

    Plan plan = WarmPlanner.plan(List.of(out), hot(0, 0), OPEN, 4_096, 512 * MIB);

    assertEquals(Skip.NONE, plan.skip());
    assertEquals(0, plan.chunkCount());
    assertEquals(65_536, plan.leftOutBytes());
  }

  @Test
  void eachGateSkipsWithItsReasonInOrder() {
    List<Output> outputs = List.of(new Output("a", 4_096, MIB));
    List<HotPartition> some = hot(0, 0);

    assertEquals(Skip.OFF, WarmPlanner.plan(outputs, some, new Gates(false, false, true), MIB, MIB).skip());
    assertEquals(Skip.NO_CHUNK_CACHE, WarmPlanner.plan(outputs, some, new Gates(true, false, true), MIB, MIB).skip());
    assertEquals(Skip.NO_CHUNK_CACHE, WarmPlanner.plan(outputs, some, OPEN, MIB, 0).skip());
    assertEquals(Skip.HIGH_LOAD, WarmPlanner.plan(outputs, some, new Gates(true, true, true), MIB, MIB).skip());
    assertEquals(Skip.NO_HOT_PARTITIONS, WarmPlanner.plan(outputs, List.of(), OPEN, MIB, MIB).skip());
    assertEquals(Skip.NONE, WarmPlanner.gate(OPEN, MIB), "the gate is open whatever the outputs hold");
    assertEquals(Skip.HIGH_LOAD, WarmPlanner.gate(new Gates(true, true, true), MIB));
  }

  @Test
  void aChunkSizeThatIsNotPositiveIsRefusedByName() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> new Output("a", 0, MIB));
    assertEquals("chunkBytes must be positive, but was 0", e.getMessage());
  }
}
