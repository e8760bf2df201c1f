package dev.cairn.cache;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import java.util.TreeMap;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The per-file list of cached blocks threaded through the blocks (FileBlocks, "The list"). */
class FileBlocksTest {
  private final NettyBlockMemory memory = new NettyBlockMemory();
  private final List<SharedBlock> made = new ArrayList<>();

  @AfterEach
  void freeBlocks() {
    made.forEach(SharedBlock::release);
  }

  private SharedBlock block() {
    SharedBlock b = new SharedBlock(memory.allocate(8), 1);
    made.add(b);
    return b;
  }

  private static long[] sorted(long[] offsets) {
    long[] copy = offsets.clone();
    Arrays.sort(copy);
    return copy;
  }

  @Test
  void aLateRemovalNoticeRemovesOnlyItsOwnBlock() {
    FileBlocks file = new FileBlocks();
    SharedBlock evicted = block();
    SharedBlock recached = block();
    file.added(0, evicted);
    file.added(0, recached); // cached again before the first one's notice arrived
    assertEquals(2, file.cachedBlockCount());

    file.removed(evicted);
    assertEquals(1, file.cachedBlockCount());
    assertArrayEquals(new long[] {0}, file.cachedOffsets(), "evictFile must find the new block");

    file.removed(evicted); // a duplicate notice changes nothing
    assertEquals(1, file.cachedBlockCount());
    file.removed(recached);
    assertEquals(0, file.cachedBlockCount());
    assertArrayEquals(new long[0], file.cachedOffsets());
  }

  @Test
  void aBlockListedInAnotherFileIsNotRemovedHere() {
    FileBlocks one = new FileBlocks();
    FileBlocks two = new FileBlocks();
    SharedBlock b = block();
    one.added(4096, b);
    two.removed(b);
    assertEquals(1, one.cachedBlockCount());
    assertArrayEquals(new long[] {4096}, one.cachedOffsets());
  }

  @Test
  void removalsAnywhereInTheListKeepTheRestLinked() {
    long seed = System.nanoTime();
    SplittableRandom random = new SplittableRandom(seed);
    FileBlocks file = new FileBlocks();
    TreeMap<Long, SharedBlock> expected = new TreeMap<>();
    for (int step = 0; step < 2_000; step++) {
      long offset = random.nextInt(64) * 4096L;
      SharedBlock listed = expected.get(offset);
      if (listed == null) {
        SharedBlock b = block();
        file.added(offset, b);
        expected.put(offset, b);
      } else {
        file.removed(listed); // head, tail or middle, as chance has it
        expected.remove(offset);
      }
      assertEquals(expected.size(), file.cachedBlockCount(), "seed " + seed + " step " + step);
      long[] offsets = expected.keySet().stream().mapToLong(Long::longValue).toArray();
      assertArrayEquals(offsets, sorted(file.cachedOffsets()), "seed " + seed + " step " + step);
    }
  }

  @Test
  void countWarmStopsAtItsLimitAndJudgesByTheClock() {
    FileBlocks file = new FileBlocks();
    for (int i = 0; i < 5; i++) {
      SharedBlock b = block();
      b.markRead(100L * i, 0); // read at clocks 0, 100, 200, 300, 400
      file.added(i * 4096L, b);
    }
    // At clock 450 with a capacity of 200, the blocks read at 300 and 400 are warm.
    assertEquals(2, file.countWarm(450, 200, Long.MAX_VALUE));
    assertEquals(1, file.countWarm(450, 200, 1));
    assertEquals(5, file.countWarm(450, 1_000, Long.MAX_VALUE));
    assertEquals(0, file.countWarm(10_000, 200, Long.MAX_VALUE));
  }
}
