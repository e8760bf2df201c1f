package dev.cairn.bench.engine.node;

import dev.cairn.bench.run.DirectorySize;
import dev.cairn.testkit.host.ChildProcesses;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Stream;

/**
 * The life and end of a node's child JVM as the runner owns it, shared by the Cassandra and HBase
 * engines: started nodes are killed if the runner itself exits; a node stops SIGTERM-then-kill;
 * its directory is cleaned down to the files kept for the report.
 */
public final class NodeProcesses {
  private static final Set<Process> RUNNING = ConcurrentHashMap.newKeySet();

  static {
    Runtime.getRuntime().addShutdownHook(new Thread(() -> {
      for (Process p : RUNNING) {
        p.destroyForcibly();
      }
    }, "node-reaper"));
  }

  private NodeProcesses() {}

  /** Starts the child and registers it, so that the runner's exit kills it. */
  public static Process start(ProcessBuilder builder) throws IOException {
    Process p = builder.start();
    RUNNING.add(p);
    return p;
  }

  /**
   * SIGTERM, after {@code stopSeconds} a kill; unregisters the child.
   *
   * @param what how the log names the child ("node", "HBase")
   * @return its exit status, or -1 if it would not die
   */
  public static int stop(String name, String what, Process p, int stopSeconds) {
    try {
      if (!ChildProcesses.stop(p, stopSeconds)) {
        System.err.printf("[%s] %s %d did not stop within %d s of SIGTERM: killed%n", name, what, p.pid(), stopSeconds);
      }
      return p.isAlive() ? -1 : p.exitValue();
    } catch (InterruptedException e) {
      p.destroyForcibly();
      Thread.currentThread().interrupt();
      return -1;
    } finally {
      RUNNING.remove(p);
    }
  }

  /** Deletes {@code dir}'s contents but for the files named in {@code kept} (logs, summaries). */
  public static void cleanDirectory(String name, Path dir, Set<String> kept) {
    if (!Files.isDirectory(dir)) {
      return;
    }
    try (Stream<Path> entries = Files.list(dir)) {
      for (Path p : (Iterable<Path>) entries::iterator) {
        if (!kept.contains(p.getFileName().toString())) {
          DirectorySize.deleteRecursively(p);
        }
      }
    } catch (IOException e) {
      System.err.printf("[%s] could not clean %s: %s%n", name, dir, e);
    }
  }
}
