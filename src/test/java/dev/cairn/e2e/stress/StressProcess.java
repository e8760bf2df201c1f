package dev.cairn.e2e.stress;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * Runs one {@link StressMain} child JVM and kills it with SIGKILL, collecting what it
 * acknowledged from its standard output (see {@link AckChannel} for the protocol).
 */
final class StressProcess {
  /** How long the child may take to open the database before the cycle counts as hung. */
  private static final long OPEN_TIMEOUT_SECONDS = 120;

  /**
   * What one child run acknowledged.
   *
   * @param opened whether the child reported the database open before it was killed
   * @param lastAck per thread, the index of its last acknowledged operation (next - 1 if none)
   * @param acks acknowledged operations, all threads
   * @param syncedAcks of those, the ones written with {@code WriteOptions.SYNC}
   * @param reopens in-process closes and reopens of the database
   * @param failure why the child failed on its own (a failed check, an exception, an exit), or null
   */
  record Outcome(boolean opened, long[] lastAck, long acks, long syncedAcks, long reopens, String failure) {}

  /**
   * When to kill.
   *
   * @param beforeOpen kill {@code delayMillis} after the start without waiting for the open, so
   *     that some kills land inside recovery
   * @param delayMillis how long to let the child run
   */
  record KillPlan(boolean beforeOpen, long delayMillis) {}

  private StressProcess() {}

  static Outcome runAndKill(Path dbDir, Path stderrLog, StressWorkload workload, EngineSettings engine,
      long actionSeed, long[] next, KillPlan plan) throws IOException, InterruptedException {
    List<String> cmd = new ArrayList<>();
    cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    cmd.addAll(List.of("-Xmx256m", "-XX:MaxDirectMemorySize=256m", "-XX:+UseSerialGC", "-ea",
        "-Dcairn.paranoid=" + System.getProperty("cairn.paranoid", "true")));
    cmd.add("-cp");
    cmd.add(System.getProperty("java.class.path"));
    cmd.add(StressMain.class.getName());
    cmd.add(dbDir.toString());
    cmd.add(workload.toArg());
    cmd.add(engine.toArg());
    cmd.add(Long.toString(actionSeed));
    cmd.add(Arrays.stream(next).mapToObj(Long::toString).reduce((a, b) -> a + "," + b).orElseThrow());
    long stderrBefore = Files.exists(stderrLog) ? Files.size(stderrLog) : 0;
    Process p = new ProcessBuilder(cmd)
        .redirectError(ProcessBuilder.Redirect.appendTo(stderrLog.toFile()))
        .start();
    Reader reader = new Reader(p, next);
    Thread readerThread = new Thread(reader, "stress-stdout-reader");
    readerThread.start();
    boolean exitedEarly;
    if (plan.beforeOpen()) {
      exitedEarly = p.waitFor(plan.delayMillis(), TimeUnit.MILLISECONDS);
    } else {
      if (!reader.opened.await(OPEN_TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
        reader.fail("the stress process did not open the database within " + OPEN_TIMEOUT_SECONDS + " s");
      }
      exitedEarly = p.waitFor(plan.delayMillis(), TimeUnit.MILLISECONDS);
    }
    if (!exitedEarly) {
      // SIGKILL: no shutdown hooks, no close; whatever the OS has is what survives. Sent with
      // kill(1) rather than Process.destroyForcibly, which also closes our end of the pipe and
      // would lose the acknowledgements still in it.
      new ProcessBuilder("kill", "-KILL", Long.toString(p.pid())).start().waitFor();
    }
    int status = p.waitFor();
    // Only now: the child halts when its standard input closes (see StressMain), which must not
    // pre-empt the kill. Closing it keeps hours of cycles from leaking descriptors.
    p.getOutputStream().close();
    readerThread.join();
    if (exitedEarly && reader.failure == null) {
      reader.fail("the stress process exited by itself with status " + status + "; stderr: "
          + tail(stderrLog, stderrBefore));
    } else if (reader.failure != null) {
      reader.failure += "; stderr: " + tail(stderrLog, stderrBefore);
    }
    return new Outcome(reader.opened.getCount() == 0, reader.lastAck, reader.acks, reader.syncedAcks, reader.reopens,
        reader.failure);
  }

  private static String tail(Path log, long from) throws IOException {
    if (!Files.exists(log)) {
      return "";
    }
    byte[] all = Files.readAllBytes(log);
    int start = (int) Math.max(from, all.length - 4000L);
    return new String(all, start, all.length - start, StandardCharsets.UTF_8);
  }

  /** Reads the child's report until the pipe closes (after the child's death). */
  private static final class Reader implements Runnable {
    private final Process process;
    private final long[] lastAck;
    final CountDownLatch opened = new CountDownLatch(1);
    volatile String failure;
    long acks;
    long syncedAcks;
    long reopens;

    Reader(Process process, long[] next) {
      this.process = process;
      this.lastAck = Arrays.stream(next).map(n -> n - 1).toArray();
    }

    synchronized void fail(String message) {
      if (failure == null) {
        failure = message;
      }
    }

    @Override
    public void run() {
      try (BufferedReader r = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
        String line;
        while ((line = r.readLine()) != null) {
          accept(line);
        }
      } catch (IOException e) {
        throw new UncheckedIOException("reading the stress process's report", e);
      }
    }

    private void accept(String line) {
      if (line.equals("open")) {
        opened.countDown();
      } else if (line.equals("reopened")) {
        reopens++;
      } else if (line.startsWith("FAIL ")) {
        fail("the stress process failed a check: " + line.substring(5));
      } else if (line.startsWith("A ")) {
        String[] p = line.split(" ");
        int thread = Integer.parseInt(p[1]);
        long index = Long.parseLong(p[2]);
        // A thread acknowledges its operations one after another; a gap would mean the
        // harness, not the engine, is broken.
        if (index != lastAck[thread] + 1) {
          fail("harness bug: thread " + thread + " acknowledged op " + index + " after " + lastAck[thread]);
        }
        lastAck[thread] = index;
        acks++;
        if (p[3].equals("S")) {
          syncedAcks++;
        }
      } else if (!line.isEmpty()) {
        fail("unexpected line from the stress process: " + line);
      }
    }
  }
}
