package dev.cairn.e2e.stress;

import dev.cairn.Cairn;
import dev.cairn.ReadOptions;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The stress process of the crash test (Cairn's {@code db_stress}): opens the database, then runs
 * one {@link StressWorker} per workload thread until it is killed; now and then a worker closes
 * and reopens the database in-process ({@link ReopenableDb}). It never exits by itself
 * unless a check fails, in which case it reports {@code FAIL} and halts with status 3.
 *
 * <p>Arguments: {@code dir workload engine actionSeed next}, where {@code workload} and
 * {@code engine} are {@link StressWorkload#toArg()} and {@link EngineSettings#toArg()}, and
 * {@code next} lists, comma-separated, the index of the next operation of each thread (the
 * driver's count of the thread's operations found applied, plus one).
 */
public final class StressMain {
  static final int FAILURE_STATUS = 3;

  private StressMain() {}

  public static void main(String[] args) throws InterruptedException {
    Path dir = Path.of(args[0]);
    StressWorkload workload = StressWorkload.parse(args[1]);
    EngineSettings engine = EngineSettings.parse(args[2]);
    long actionSeed = Long.parseLong(args[3]);
    String[] next = args[4].split(",");
    AckChannel channel = AckChannel.onStandardOutput();
    haltWhenTheDriverGoes();
    try {
      ReopenableDb holder = new ReopenableDb(dir, engine.toOptions());
      Cairn db = holder.enter();
      List<Thread> threads = new ArrayList<>();
      for (int t = 0; t < workload.threads(); t++) {
        // The driver has just verified the database against its expected state, so reading the
        // thread's keys back gives the model without replaying the thread's whole history.
        KeyVersions model = KeyVersions.read(db, ReadOptions.DEFAULT, t, workload.keysPerThread());
        StressWorker worker = new StressWorker(holder, workload, t, Long.parseLong(next[t]), model, actionSeed, channel);
        Thread thread = new Thread(() -> runOrHalt(worker, channel), "stress-" + t);
        threads.add(thread);
      }
      holder.exit();
      channel.open();
      threads.forEach(Thread::start);
      for (Thread thread : threads) {
        thread.join();
      }
    } catch (RuntimeException | Error e) {
      failAndHalt(channel, e);
    }
  }

  /**
   * The driver never writes to our standard input, so it reaches end-of-file only when the driver
   * is gone; halting then keeps a crashed or interrupted test from leaving a stress process
   * running forever.
   */
  private static void haltWhenTheDriverGoes() {
    Thread watchdog = new Thread(() -> {
      try {
        while (System.in.read() >= 0) {
          // Nothing is sent; keep waiting for end-of-file.
        }
      } catch (IOException e) {
        // Treated like end-of-file.
      }
      Runtime.getRuntime().halt(FAILURE_STATUS);
    }, "driver-watchdog");
    watchdog.setDaemon(true);
    watchdog.start();
  }

  private static void runOrHalt(StressWorker worker, AckChannel channel) {
    try {
      worker.run();
    } catch (RuntimeException | Error e) {
      failAndHalt(channel, e);
    }
  }

  private static void failAndHalt(AckChannel channel, Throwable e) {
    StringWriter trace = new StringWriter();
    e.printStackTrace(new PrintWriter(trace));
    System.err.println(trace);
    channel.fail(e + " at " + (e.getStackTrace().length > 0 ? e.getStackTrace()[0] : "?"));
    // halt, not exit: no shutdown hooks, nothing more written to the database.
    Runtime.getRuntime().halt(FAILURE_STATUS);
  }
}
