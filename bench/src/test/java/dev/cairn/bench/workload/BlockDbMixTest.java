package dev.cairn.bench.workload;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cairn.bench.RunConfig;
import dev.cairn.bench.cli.Flags;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** Each of BlockDB's mixes issues its share of writes, and reads half points, half scans, skewed. */
class BlockDbMixTest {
  private static final long RECORDS = 100_000;
  private static final int STEPS = 200_000;

  /** Counts what a mix's clients ask for. */
  private static final class Tally implements Ops {
    long reads;
    long scans;
    long writes;
    final Map<Long, Integer> readKeys = new HashMap<>();

    @Override
    public void read(long id) {
      reads++;
      assertTrue(id >= 0 && id < RECORDS, "a read of an id never loaded: " + id);
      readKeys.merge(id, 1, Integer::sum);
    }

    @Override
    public void write(long id) {
      writes++;
      assertTrue(id >= 0 && id < RECORDS, "a write outside the loaded ids: " + id);
    }

    @Override
    public void scan(long id, int limit) {
      scans++;
      assertTrue(id >= 0 && id < RECORDS, "a scan from an id never loaded: " + id);
      assertTrue(limit >= 1 && limit <= Workloads.MAX_SCAN, "scan limit " + limit);
    }
  }

  @Test
  void everyMixWritesItsShareAndReadsHalfPointsHalfScansOfPopularKeys() {
    RunConfig config = Flags.parse("compare", new String[] {"--out", "x", "--readers", "2"}).config();
    for (BlockDbMix mix : BlockDbMix.inOrder()) {
      List<Worker> clients = FollowUpWorkloads.mix(config, new KeySpace(RECORDS), mix);
      assertEquals(2, clients.size(), mix + ": one client per reader");
      Tally tally = new Tally();
      SplittableRandom random = new SplittableRandom(7);
      for (int i = 0; i < STEPS; i++) {
        assertTrue(clients.get(i % 2).step(tally, random), mix + ": a client stops");
      }
      double writeShare = (double) tally.writes / STEPS;
      assertEquals(mix.writeShare(), writeShare, 0.01, mix + ": share of writes");
      long readRequests = tally.reads + tally.scans;
      assertEquals(STEPS, readRequests + tally.writes, mix + ": one request a step");
      assertEquals(0.5, (double) tally.scans / readRequests, 0.02, mix + ": share of scans among reads");
      int hottest = tally.readKeys.values().stream().max(Integer::compare).orElseThrow();
      double uniformCount = (double) tally.reads / RECORDS;
      assertTrue(hottest > 100 * uniformCount,
          mix + ": the most read key was read " + hottest + " times, a uniform draw gives " + uniformCount);
    }
  }
}
