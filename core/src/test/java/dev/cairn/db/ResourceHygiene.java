package dev.cairn.db;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cairn.Cairn;
import dev.cairn.db.base.Engine;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * Checks that a closed database let go of everything it held: no open file descriptor into its
 * directory and no more descriptors in the process than before it was opened, no background
 * thread still alive, and no off-heap block memory still pinned. Call {@link #before(Path)}
 * before opening and {@link #assertReleased} after closing.
 *
 * <p>File descriptors are read from {@code /proc/self/fd} (Linux); elsewhere that check is
 * skipped and the thread and memory checks still run.
 */
final class ResourceHygiene {
  private static final Path FDS = Path.of("/proc/self/fd");

  /** What the process held before the database was opened. */
  record Baseline(Path dir, List<String> openFds) {}

  private ResourceHygiene() {}

  static Baseline before(Path dir) {
    warmUpOnce();
    return new Baseline(dir, fileDescriptors());
  }

  private static boolean warmedUp;

  /**
   * Opens and closes one throwaway database per JVM, so that descriptors the runtime opens once
   * and keeps (class files in jars, the JIT's and netty's first-use files) are in every baseline.
   */
  private static synchronized void warmUpOnce() {
    if (warmedUp) {
      return;
    }
    warmedUp = true;
    try {
      Path tmp = Files.createTempDirectory("cairn-hygiene-warmup");
      try (Cairn db = Cairn.open(tmp, dev.cairn.Options.builder().memtableBytes(64 << 10).build())) {
        for (int i = 0; i < 2000; i++) {
          db.put(("k" + i).getBytes(), new byte[100]);
        }
        db.flush();
        db.compactRange(null, null);
        db.get("k1".getBytes());
        db.verifyChecksums();
      }
      try (Stream<Path> files = Files.list(tmp)) {
        for (Path f : (Iterable<Path>) files::iterator) {
          Files.delete(f);
        }
      }
      Files.delete(tmp);
    } catch (IOException e) {
      throw new AssertionError("warming up the resource baseline", e);
    }
  }

  /** The open file descriptors that point into {@code dir} (the directory itself included). */
  private static List<String> intoDir(Path dir) {
    List<String> into = new ArrayList<>();
    for (String target : fileDescriptors()) {
      if (target.startsWith(dir.toString())) {
        into.add(target);
      }
    }
    return into;
  }

  /**
   * Requires: every database opened on {@code baseline.dir()} since the baseline is closed;
   * {@code opened} are those whose block caches are inspected (null entries are skipped).
   */
  static void assertReleased(Baseline baseline, Cairn... opened) {
    Path dir = baseline.dir().toAbsolutePath();
    List<String> intoDir = intoDir(dir);
    // Once (BUFFER/DLC, a failed open) the directory itself was still open for a moment: a
    // background task of the failed open finishing a listing. A leak outlasts a second of retries.
    for (int retry = 0; retry < 20 && !intoDir.isEmpty(); retry++) {
      try {
        Thread.sleep(50);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      intoDir = intoDir(dir);
    }
    assertEquals(List.of(), intoDir, "file descriptors into " + dir + " still open after close");
    List<String> fds = fileDescriptors();
    if (Files.isDirectory(FDS)) {
      // The JVM opens short-lived descriptors of its own (cgroup statistics, for one): give a
      // transient one a moment to close before calling it a leak.
      for (int retry = 0; retry < 20 && fds.size() > baseline.openFds().size(); retry++) {
        try {
          Thread.sleep(50);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
        fds = fileDescriptors();
      }
      List<String> added = new ArrayList<>(fds);
      baseline.openFds().forEach(added::remove);
      assertTrue(fds.size() <= baseline.openFds().size(), "file descriptors leaked: "
          + baseline.openFds().size() + " before open, " + fds.size() + " after close; new: " + added);
    }
    assertNoBackgroundThreads(dir);
    for (Cairn c : opened) {
      Engine engine = c instanceof DbImpl db ? db.engine() : null;
      if (engine != null) {
        assertEquals(0, engine.blockCache().stats().pinnedBytes(), "off-heap block memory still pinned after close");
      }
    }
  }

  /** Background threads are named {@code cairn-bg-<dir name>-<n>}; none may outlive close. */
  private static void assertNoBackgroundThreads(Path dir) {
    String prefix = "cairn-bg-" + dir.getFileName() + "-";
    for (Thread t : Thread.getAllStackTraces().keySet()) {
      if (t.getName().startsWith(prefix)) {
        // close() waits for the pool to terminate; a worker may still be returning from run().
        try {
          t.join(10_000);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
        assertTrue(!t.isAlive(), "thread " + t.getName() + " outlived close");
      }
    }
  }

  /** Targets of this process's open file descriptors; empty where /proc is absent. */
  private static List<String> fileDescriptors() {
    List<String> targets = new ArrayList<>();
    if (!Files.isDirectory(FDS)) {
      return targets;
    }
    try (Stream<Path> s = Files.list(FDS)) {
      for (Path fd : (Iterable<Path>) s::iterator) {
        try {
          String target = Files.readSymbolicLink(fd).toString();
          if (!target.startsWith("/proc/") && !target.startsWith("/sys/")) {
            targets.add(target); // the runtime's own reads of /proc and /sys come and go
          }
        } catch (IOException e) {
          // Closed between listing and reading (the listing's own descriptor, for one).
        }
      }
    } catch (IOException e) {
      throw new AssertionError("cannot list " + FDS, e);
    }
    return targets;
  }
}
