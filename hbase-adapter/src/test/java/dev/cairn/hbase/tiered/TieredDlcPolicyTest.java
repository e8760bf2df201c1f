package dev.cairn.hbase.tiered;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cairn.compaction.dlc.LoadClass;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class TieredDlcPolicyTest {
  private static final long MIB = 1L << 20;

  @Test
  void badSettingsAreRefusedByName() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> new TieredDlcConfig(0, 60_000, 4, 8 * MIB, 3, 10, 1.2));
    assertEquals("boundMarginFiles must be in [1, 1000]: 0", e.getMessage());
    e = assertThrows(IllegalArgumentException.class, () -> new TieredDlcConfig(4, 60_000, 4, 8 * MIB, 5, 4, 1.2));
    assertEquals("maxFiles must be in [5, 1000]: 4", e.getMessage());
    e = assertThrows(IllegalArgumentException.class, () -> new TieredDlcConfig(4, 60_000, 1, 8 * MIB, 3, 10, 1.2));
    assertTrue(e.getMessage().startsWith("partTriggerFreshFiles"), e.getMessage());
    e = assertThrows(IllegalArgumentException.class, () -> new TieredDlcConfig(4, 60_000, 4, 8 * MIB, 3, 10, Double.NaN));
    assertTrue(e.getMessage().startsWith("ratio"), e.getMessage());
  }

  @Test
  void aStoreSelectionMustBeAContiguousWindow() {
    StoreFile a = StoreFile.of(1, MIB);
    StoreFile b = StoreFile.of(2, MIB);
    StoreFile c = StoreFile.of(3, MIB);
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> new StoreRequest(List.of(a, b, c), 0, 16, StoreRequest.Kind.SYSTEM, List.of(a, c)));
    assertTrue(e.getMessage().startsWith("storeSelection must be a contiguous window"), e.getMessage());
    assertThrows(IllegalArgumentException.class, () -> new StoreFile(4, -1, 0, false, false));
  }

  @Test
  void aCompactionThatIsNeverDelayedEndsTheDelayInForce() {
    // Found in the mini cluster: a major compaction ran while a delay was in force, and the next
    // flush was released at once "at the time bound" the major compaction had already met.
    long[] now = {0};
    TieredDlcPolicy policy = new TieredDlcPolicy(new TieredDlcConfig(4, 3_000, 50, 8 * MIB, 3, 10, 1.2), () -> now[0]);
    List<StoreFile> files = List.of(StoreFile.of(1, 100 * MIB), StoreFile.of(2, MIB), StoreFile.of(3, MIB));
    StoreRequest system = new StoreRequest(files, 0, 16, StoreRequest.Kind.SYSTEM, files);
    assertEquals(TieredDlcPolicy.Action.DELAY, policy.decide(LoadClass.HIGH, system).action());
    now[0] += 5_000_000_000L;
    StoreRequest major = new StoreRequest(files, 0, 16, StoreRequest.Kind.MAJOR, files);
    assertEquals(TieredDlcPolicy.Action.AS_STORE, policy.decide(LoadClass.HIGH, major).action());
    assertFalse(policy.delaying());
    assertEquals(0, policy.currentDelayNanos());
    assertEquals(TieredDlcPolicy.Action.DELAY, policy.decide(LoadClass.HIGH, system).action(),
        "the next held compaction starts its own time bound");
  }

  /**
   * Random stores, loads and clock steps: every selection is a contiguous window of the eligible
   * files; under high load a system request is held back only below the file bound; a release
   * at the file bound brings the store below it whenever one merge of at most maxFiles can; the
   * policy's own windows never take a bulk-loaded file and keep HBase's ratio.
   */
  @Test
  void selectionsStayContiguousAndBoundsHold() {
    TieredDlcConfig config = new TieredDlcConfig(4, 60_000, 4, 8 * MIB, 3, 10, 1.2);
    for (long seed = 0; seed < 300; seed++) {
      SplittableRandom r = new SplittableRandom(seed);
      long[] now = {0};
      TieredDlcPolicy policy = new TieredDlcPolicy(config, () -> now[0]);
      for (int step = 0; step < 40; step++) {
        List<StoreFile> files = randomStore(r);
        int compacting = r.nextInt(4);
        int blocking = 8 + r.nextInt(12);
        List<StoreFile> store = randomWindow(files, r);
        StoreRequest.Kind kind = r.nextInt(10) == 0 ? StoreRequest.Kind.USER : StoreRequest.Kind.SYSTEM;
        StoreRequest request = new StoreRequest(files, compacting, blocking, kind, store);
        LoadClass load = r.nextInt(3) == 0 ? LoadClass.LOW : LoadClass.HIGH;
        TieredDlcPolicy.Decision d = policy.decide(load, request);
        String where = "seed " + seed + " step " + step + ": " + d;

        assertTrue(isWindow(files, d.selection()), where);
        int bound = blocking - config.boundMarginFiles();
        if (d.action() == TieredDlcPolicy.Action.DELAY) {
          assertTrue(load == LoadClass.HIGH && kind == StoreRequest.Kind.SYSTEM, where);
          assertTrue(request.storeFiles() < bound, where);
        }
        if (d.action() == TieredDlcPolicy.Action.RELEASE_AT_BOUND || d.action() == TieredDlcPolicy.Action.PART_RUN) {
          if (!d.selection().equals(store)) {
            assertFalse(d.selection().stream().anyMatch(StoreFile::excludedFromMinor), where);
          }
        }
        if (d.action() == TieredDlcPolicy.Action.RELEASE_AT_BOUND && !d.selection().equals(store)) {
          assertTrue(ColdWindows.inRatio(d.selection(), config.ratio()), where);
          int needed = Math.max(config.minFiles(), request.storeFiles() - bound + 2);
          if (request.storeFiles() >= bound && needed <= config.maxFiles()) {
            assertTrue(d.selection().size() >= needed, where);
          }
        }
        now[0] += (long) r.nextInt(30_000) * 1_000_000L;
      }
    }
  }

  private static List<StoreFile> randomStore(SplittableRandom r) {
    int n = r.nextInt(15);
    List<StoreFile> files = new ArrayList<>();
    long size = 400 * MIB;
    for (int i = 0; i < n; i++) {
      size = Math.max(MIB, (long) (size * (0.2 + r.nextDouble())));
      long cached = r.nextInt(3) == 0 ? (long) (size * r.nextDouble()) : 0;
      files.add(new StoreFile(i + 1, size, cached, false, r.nextInt(12) == 0));
    }
    return files;
  }

  private static List<StoreFile> randomWindow(List<StoreFile> files, SplittableRandom r) {
    if (files.size() < 2 || r.nextInt(4) == 0) {
      return List.of();
    }
    int length = 2 + r.nextInt(files.size() - 1);
    int from = r.nextInt(files.size() - length + 1);
    return files.subList(from, from + length);
  }

  private static boolean isWindow(List<StoreFile> files, List<StoreFile> selection) {
    return selection.isEmpty() || Collections.indexOfSubList(files, selection) >= 0;
  }
}
