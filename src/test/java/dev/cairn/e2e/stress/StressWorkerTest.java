package dev.cairn.e2e.stress;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cairn.Options;
import dev.cairn.testing.EngineCombo.CompactionScheduler;
import dev.cairn.testing.EngineCombo.CompactionStyle;
import dev.cairn.testkit.Seeds;
import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The stress process's workers, run in-process for a bounded number of steps. */
class StressWorkerTest {
  private static final StressWorkload WORKLOAD = new StressWorkload(11, 3, 200, 5);

  @TempDir Path dir;

  @Test
  void concurrentWorkersPassTheirOwnChecksAndAcknowledgeInOrder() throws Exception {
    long seed = Seeds.seed();
    Options options = EngineSettings.random(dev.cairn.testing.EngineCombo.of(CompactionStyle.TABLE, CompactionScheduler.IMMEDIATE), new java.util.Random(seed)).toOptions();
    ByteArrayOutputStream acks = new ByteArrayOutputStream();
    AckChannel channel = new AckChannel(acks);
    ExecutorService pool = Executors.newFixedThreadPool(WORKLOAD.threads());
    try (ReopenableDb db = new ReopenableDb(dir, options)) {
      List<Future<?>> done = new ArrayList<>();
      for (int t = 0; t < WORKLOAD.threads(); t++) {
        StressWorker w = new StressWorker(db, WORKLOAD, t, 1, new KeyVersions(t, WORKLOAD.keysPerThread()), seed, channel);
        done.add(pool.submit(() -> w.runSteps(1500)));
      }
      for (Future<?> f : done) {
        assertDoesNotThrow(() -> f.get(), "seed " + seed);
      }
    } finally {
      pool.shutdown();
    }
    long[] last = new long[WORKLOAD.threads()];
    for (String line : acks.toString(StandardCharsets.UTF_8).split("\n")) {
      if (line.startsWith("A ")) {
        String[] p = line.split(" ");
        int t = Integer.parseInt(p[1]);
        long index = Long.parseLong(p[2]);
        assertTrue(index == last[t] + 1, "thread " + t + " acknowledged " + index + " after " + last[t]);
        last[t] = index;
      }
    }
    for (int t = 0; t < last.length; t++) {
      assertTrue(last[t] > 1000, "thread " + t + " wrote only " + last[t] + " times in 1500 steps");
    }
  }

  @Test
  void aWorkerWhoseModelDisagreesWithTheDatabaseFails() {
    try (ReopenableDb db = new ReopenableDb(dir, Options.builder().memtableBytes(64 << 10).build())) {
      AckChannel channel = new AckChannel(OutputStream.nullOutputStream());
      new StressWorker(db, WORKLOAD, 0, 1, new KeyVersions(0, WORKLOAD.keysPerThread()), 1, channel).runSteps(500);
      // A second worker for the same thread that believes nothing was written: its first read
      // of a key the first worker wrote must fail.
      StressWorker confused = new StressWorker(db, WORKLOAD, 0, 1000, new KeyVersions(0, WORKLOAD.keysPerThread()), 2,
          channel);
      assertThrows(StressFailure.class, () -> confused.runSteps(2000));
    }
  }
}
