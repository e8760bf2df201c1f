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
   * A written block goes into the ring past the window and admission, behind the hand: it takes
   * the hand's victim's place, though a read newcomer with its one request would tie with that
   * victim and be turned away, and the sketch does not count it. (A fixed window: the sizer stays
   * out of it.)
   */
  @Test
  void aWrittenBlockEntersTheRingPastAdmission() {
    ClockBlockTable fixed = fixedWindow(1);
    fillTheRing(fixed);
    BlockKey written = new BlockKey(2, 0);
    fixed.computeIfAbsentWritten(written, k -> block(100));
    assertEquals(List.of(new BlockKey(1, 0)), removed, "the hand's victim made room");
    assertNotNull(fixed.peek(written));
    assertEquals(0, fixed.frequency(written), "a write is not a request");

    BlockKey newcomer = new BlockKey(3, 0);
    fixed.computeIfAbsent(newcomer, k -> block(100));
    assertEquals(List.of(new BlockKey(1, 0), newcomer), removed, "a read once ties and is refused");
  }

  /**
   * Behind the hand, a written block is the last the hand reaches: read by then, the hand passes
   * it once (counting the read) and takes the next; unread, it is the victim.
   */
  @Test
  void theHandPassesAWrittenBlockOnlyIfItWasRead() {
    ClockBlockTable fixed = fixedWindow(1);
    fillTheRing(fixed);
    BlockKey read = new BlockKey(2, 0);
    BlockKey unread = new BlockKey(2, 1);
    fixed.computeIfAbsentWritten(read, k -> block(100)); // gives (1, 0) up
    fixed.computeIfAbsentWritten(unread, k -> block(100)); // gives (1, 1) up
    fixed.get(read);
    for (int i = 2; i < 10; i++) { // each gives the next (1, i) up
      fixed.computeIfAbsentWritten(new BlockKey(3, i), k -> block(100));
    }
    removed.clear();
    fixed.computeIfAbsentWritten(new BlockKey(4, 0), k -> block(100));
    assertEquals(List.of(unread), removed, "the read block passed, the unread one taken");
    assertNotNull(fixed.peek(read));
    assertEquals(1, fixed.frequency(read), "its read, counted as the hand passed");
  }

  /** A written block that could not fit beside the window with the ring empty evicts no one. */
  @Test
  void aWrittenBlockLargerThanTheRingIsNotCached() {
    ClockBlockTable fixed = fixedWindow(1);
    fillTheRing(fixed);
    BlockKey big = new BlockKey(2, 0);
    fixed.computeIfAbsentWritten(big, k -> block(1001));
    assertEquals(List.of(big), removed);
    for (int i = 0; i < 10; i++) {
      assertNotNull(fixed.peek(new BlockKey(1, i)), "block " + i + " kept");
    }
  }

  /**
   * A block the ring gave up for a written one is remembered as given up: when it is missed again,
   * the window shrinks as for any block the ring gave up (the ring was too small to keep it).
   */
  @Test
  void aBlockGivenUpForAWrittenOneShrinksTheWindowWhenItComesBack() {
    fillTheRing(table);
    BlockKey newcomer = new BlockKey(2, 0);
    insert(newcomer, 100); // ties with the victim: turned away
    insert(newcomer, 100); // back: the window grows by its weight, (1, 0) given up for it
    assertEquals(110, table.windowCapacity());
    table.computeIfAbsentWritten(new BlockKey(3, 0), k -> block(100)); // gives (1, 1) up
    assertEquals(List.of(newcomer, new BlockKey(1, 0), new BlockKey(1, 1)), removed);
    insert(new BlockKey(1, 1), 100);
    assertEquals(10, table.windowCapacity(), "shrunk by the returning block's weight");
  }

  /** Ten blocks of 100 bytes, each asked for once: a 1,000-byte shard's ring full, the hand at (1, 0). */
  private static void fillTheRing(ClockBlockTable table) {
    for (int i = 0; i < 10; i++) {
      table.computeIfAbsent(new BlockKey(1, i), k -> block(100));
    }
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
