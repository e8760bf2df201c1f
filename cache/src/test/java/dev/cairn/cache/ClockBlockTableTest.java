package dev.cairn.cache;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@link ClockBlockTable} alone, with blocks of exact weights and the sketch's counts in view: what
 * the cache's tests can only see through admissions.
 */
class ClockBlockTableTest {
  private final List<BlockKey> removed = new ArrayList<>();
  /** One shard (under 2 MiB) of 1,000 bytes: a window of 10. */
  private final ClockBlockTable table = new ClockBlockTable(1000, (key, block, forRoom) -> {
    removed.add(key);
    block.release();
  });

  /** A block of {@code weight} bytes on the heap; the table owns its one reference. */
  private static SharedBlock block(int weight) {
    ByteBuffer bytes = ByteBuffer.allocateDirect(weight);
    return new SharedBlock(new MemoryRegion() {
      @Override
      public ByteBuffer buffer() {
        return bytes;
      }

      @Override
      public int size() {
        return weight;
      }

      @Override
      public void free() {}
    }, 1);
  }

  private void insert(BlockKey key, int weight) {
    table.computeIfAbsent(key, k -> block(weight));
  }

  /**
   * A block read while in the window keeps its bit when it enters the ring: the hand passes it
   * once before it can be a victim, so it outlasts ringed blocks never read.
   */
  @Test
  void aBlockReadInTheWindowSurvivesTheHandsFirstPass() {
    BlockKey read = new BlockKey(1, 0);
    insert(read, 10); // fills the window exactly
    table.get(read);
    for (int i = 1; i <= 9; i++) { // each pushes the window's block into the ring, which has room
      insert(new BlockKey(2, i), 100);
    }
    assertEquals(2, table.frequency(read), "its insert and its read, counted as it left the window");
    // Full: a newcomer faces the hand, which stands at the first block ringed, the one read.
    BlockKey newcomer = new BlockKey(2, 10);
    insert(newcomer, 100); // the hand passes the read block; (2, 1) ties with the newcomer
    insert(newcomer, 100); // asked again: it outcounts (2, 1)
    assertEquals(List.of(newcomer, new BlockKey(2, 1)), removed);
    assertNotNull(table.peek(read));
    assertNotNull(table.peek(newcomer));
  }

  /**
   * A written block is not a request: unread, it leaves the window with nothing to count and is
   * turned away even by a victim asked for once; asked for later, only those requests count, so
   * it needs two to outcount that victim. (A fixed window: the sizer stays out of it.)
   */
  @Test
  void aWrittenBlockCountsOnlyItsReads() {
    ClockBlockTable fixed = fixedWindow(1);
    for (int i = 0; i < 10; i++) { // the ring full, each block asked for once
      fixed.computeIfAbsent(new BlockKey(1, i), k -> block(100));
    }
    BlockKey written = new BlockKey(2, 0);
    fixed.computeIfAbsentWritten(written, k -> block(100));
    assertEquals(0, fixed.frequency(written), "a write is not a request");
    assertEquals(List.of(written), removed, "turned away at the window's exit");
    removed.clear();

    fixed.computeIfAbsent(written, k -> block(100)); // its first request ties with the victim's one
    assertEquals(List.of(written), removed);
    fixed.computeIfAbsent(written, k -> block(100)); // its second outcounts it
    assertEquals(List.of(written, new BlockKey(1, 0)), removed);
    assertNotNull(fixed.peek(written));
  }

  /**
   * Read once in the window, a written block has one request to show as it leaves and ties with
   * a victim asked for once; a block that missed and was read in the window has two and wins.
   */
  @Test
  void aWrittenBlockReadInTheWindowShowsOneRequest() {
    ClockBlockTable fixed = fixedWindow(20); // a window of two blocks
    for (int i = 0; i < 8; i++) { // (1, 0) to (1, 5) ringed, (1, 6) and (1, 7) in the window
      fixed.computeIfAbsent(new BlockKey(1, i), k -> block(100));
    }
    BlockKey written = new BlockKey(2, 0);
    fixed.computeIfAbsentWritten(written, k -> block(100));
    fixed.get(written);
    fixed.computeIfAbsentWritten(new BlockKey(2, 1), k -> block(100)); // the ring now full
    fixed.computeIfAbsentWritten(new BlockKey(2, 2), k -> block(100)); // pushes the read block out
    assertEquals(List.of(written), removed, "1 against the victim's 1: the victim stays");

    BlockKey missed = new BlockKey(3, 0);
    fixed.computeIfAbsent(missed, k -> block(100)); // pushes (2, 1) out, never read: 0
    fixed.get(missed);
    fixed.computeIfAbsent(new BlockKey(3, 1), k -> block(100)); // pushes (2, 2) out: 0
    fixed.computeIfAbsent(new BlockKey(3, 2), k -> block(100)); // pushes the missed block out: 2
    assertEquals(List.of(written, new BlockKey(2, 1), new BlockKey(2, 2), new BlockKey(1, 0)), removed);
    assertNotNull(fixed.peek(missed));
  }

  /**
   * Written over a cached key, nothing changes: the cached block stays and is not marked read,
   * so the hand takes it as its first victim rather than passing it.
   */
  @Test
  void aWrittenBlockAlreadyCachedIsLeftAsItIs() {
    ClockBlockTable fixed = fixedWindow(1);
    BlockKey key = new BlockKey(1, 0);
    fixed.computeIfAbsent(key, k -> block(100));
    SharedBlock cached = fixed.peek(key);
    assertEquals(cached, fixed.computeIfAbsentWritten(key, k -> block(100)));
    for (int i = 1; i < 10; i++) { // the ring full, each block asked for once
      fixed.computeIfAbsent(new BlockKey(2, i), k -> block(100));
    }
    BlockKey newcomer = new BlockKey(3, 0);
    fixed.computeIfAbsent(newcomer, k -> block(100)); // ties with the hand's victim
    fixed.computeIfAbsent(newcomer, k -> block(100)); // outcounts it
    assertEquals(List.of(newcomer, key), removed);
  }

  /** One shard of 1,000 bytes whose window stays at {@code percent}% of it. */
  private ClockBlockTable fixedWindow(int percent) {
    return new ClockBlockTable(1000, percent, percent, (key, block, forRoom) -> {
      removed.add(key);
      block.release();
    });
  }

  /** A block that could not fit even with the ring empty leaves at once and takes no one with it. */
  @Test
  void aBlockLargerThanTheRingEvictsNoOne() {
    for (int i = 0; i < 9; i++) {
      insert(new BlockKey(1, i), 100);
    }
    BlockKey big = new BlockKey(2, 0);
    for (int ask = 0; ask < 4; ask++) { // asked often enough to outcount every block ringed
      insert(big, 1001);
    }
    assertNull(table.peek(big));
    assertEquals(List.of(big, big, big, big), removed, "only the big block left, once per ask");
    for (int i = 0; i < 9; i++) {
      assertNotNull(table.peek(new BlockKey(1, i)), "block " + i + " kept");
    }
  }

  /** The largest block offered: the smallest shard's capacity. */
  @Test
  void largestBlockIsTheSmallestShardsCapacity() {
    assertEquals(1000, table.largestBlock());
    BlockTable.RemovalListener ignore = (key, block, forRoom) -> {};
    assertEquals(1L << 20, new ClockBlockTable(4L << 20, ignore).largestBlock(), "four shards");
    // Shards of unequal shares: the first ones take the remainder.
    assertEquals(1L << 20, new ClockBlockTable((2L << 20) + 1, ignore).largestBlock());
  }

  /**
   * With the window fixed (too small for a block), admission is the sketch's alone: a block
   * turned away is still counted, so one asked for again outcounts a victim inserted once and
   * never read; a block read in the ring needs one more ask for each time the hand saw it read.
   */
  @Test
  void aBlockAskedForAgainIsAdmittedOverOneNeverReadAgain() {
    List<BlockKey> gone = new ArrayList<>();
    ClockBlockTable fixed = new ClockBlockTable(6400, 1, 1, (key, block, forRoom) -> {
      gone.add(key);
      block.release();
    });
    for (int i = 0; i < 64; i++) {
      fixed.computeIfAbsent(new BlockKey(1, i), k -> block(100));
    }
    assertEquals(List.of(), gone, "a window too small for a block takes no room");
    BlockKey twice = new BlockKey(2, 0);
    fixed.computeIfAbsent(twice, k -> block(100));
    assertNull(fixed.peek(twice), "asked for once: ties with its victim and is turned away");
    fixed.computeIfAbsent(twice, k -> block(100));
    assertNotNull(fixed.peek(twice), "asked for twice: outcounts a victim never read");
    assertEquals(List.of(twice, new BlockKey(1, 0)), gone, "the hand's first block was the victim");
    assertEquals(64, fixed.windowCapacity(), "the window did not move");

    for (int i = 1; i < 64; i++) { // every block read: the hand counts each once as it passes
      fixed.get(new BlockKey(1, i));
    }
    fixed.get(twice);
    BlockKey thrice = new BlockKey(3, 0);
    fixed.computeIfAbsent(thrice, k -> block(100));
    fixed.computeIfAbsent(thrice, k -> block(100));
    assertNull(fixed.peek(thrice), "two asks tie with a victim inserted once and read once");
    fixed.computeIfAbsent(thrice, k -> block(100));
    assertNotNull(fixed.peek(thrice), "the third wins");
  }
}
