package dev.cairn.cache;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.function.ObjLongConsumer;
import org.junit.jupiter.api.Test;

/**
 * {@link WindowSizer}'s rule alone, shape in and capacity out: returns, by kind and rate, move the
 * window once their push reaches a 64th of the shard, and never past its bounds.
 */
class WindowSizerTest {
  /** 64 blocks of 100 bytes: one block's weight is the push that moves the window. */
  private static final long SHARD = 6400;
  private static final int BLOCK = 100;

  private static long hash(int i) {
    return FrequencySketch.hash(1, i * 4096L);
  }

  /** A sizer whose lists are sized for a full shard (else a few hashes may share a slot). */
  private static WindowSizer sizer(long maxWindow) {
    WindowSizer sizer = new WindowSizer(SHARD, 64, maxWindow);
    sizer.onInsert(hash(-1), BLOCK, 64, 1);
    return sizer;
  }

  @Test
  void aTurnedAwayBlockThatComesBackGrowsTheWindowByItsWeight() {
    WindowSizer sizer = sizer(5120);
    sizer.refused(hash(1));
    sizer.onInsert(hash(1), BLOCK, 64, 1);
    assertEquals(64 + BLOCK, sizer.capacity());
  }

  /** Given up by the ring for room, or for a written block: either way its return shrinks it. */
  @Test
  void aGivenUpBlockThatComesBackShrinksIt() {
    for (ObjLongConsumer<WindowSizer> giveUp : List.<ObjLongConsumer<WindowSizer>>of(
        WindowSizer::ejected, WindowSizer::givenUpForWritten)) {
      WindowSizer sizer = sizer(5120);
      sizer.refused(hash(1));
      sizer.onInsert(hash(1), BLOCK, 64, 1);
      giveUp.accept(sizer, hash(2));
      sizer.onInsert(hash(2), BLOCK, 64, 1);
      assertEquals(64, sizer.capacity(), "back where it was");
    }
  }

  /**
   * Blocks given up for written ones are not ejections in the rates, which weigh what admission
   * let in: two of them beside two refusals leave a refused block's return at half a block's push.
   */
  @Test
  void blocksGivenUpForWrittenOnesDoNotCountInTheRates() {
    WindowSizer sizer = sizer(5120);
    sizer.refused(hash(100));
    sizer.refused(hash(101));
    sizer.givenUpForWritten(hash(200));
    sizer.givenUpForWritten(hash(201));
    sizer.onInsert(hash(100), BLOCK, 64, 8);
    assertEquals(64, sizer.capacity(), "counted as ejections, this return alone would move it");
  }

  /**
   * Many refusals and few ejections: a refused block's return weighs ejections over refusals, so
   * returns of the two kinds at equal rates leave the window where it is.
   */
  @Test
  void returnsAreWeighedByTheirKindsRates() {
    WindowSizer sizer = sizer(5120);
    for (int i = 0; i < 4; i++) {
      sizer.refused(hash(100 + i));
    }
    sizer.ejected(hash(200));
    sizer.onInsert(hash(100), BLOCK, 64, 8); // a quarter of a block's push: no move yet
    assertEquals(64, sizer.capacity());
    sizer.onInsert(hash(101), BLOCK, 64, 8);
    sizer.onInsert(hash(102), BLOCK, 64, 8);
    sizer.onInsert(hash(103), BLOCK, 64, 8); // four returns of four refusals: one block's push
    assertEquals(64 + BLOCK, sizer.capacity());
  }

  @Test
  void aReturnPastTheHorizonDoesNotCount() {
    WindowSizer sizer = sizer(5120);
    sizer.refused(hash(1));
    for (int i = 0; i < WindowSizer.RETURN_HORIZON; i++) {
      sizer.onInsert(hash(1000 + i), BLOCK, 64, 1); // a window of one block: the horizon is 16 inserts
    }
    sizer.onInsert(hash(1), BLOCK, 64, 1);
    assertEquals(64, sizer.capacity());
  }

  @Test
  void theWindowStaysWithinItsBounds() {
    WindowSizer sizer = sizer(250);
    for (int i = 0; i < 5; i++) {
      sizer.refused(hash(i));
      sizer.onInsert(hash(i), BLOCK, 64, 1);
    }
    assertEquals(250, sizer.capacity(), "held at its largest");
    for (int i = 10; i < 15; i++) {
      sizer.ejected(hash(i));
      sizer.onInsert(hash(i), BLOCK, 64, 1);
    }
    assertEquals(64, sizer.capacity(), "held at its least");
  }
}
