package dev.cairn.bench.engine.node;

import dev.cairn.bench.run.DirectorySize;
import dev.cairn.testkit.host.ChildJvm;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.stream.Stream;

/**
 * The end of a node's child JVM as the runner owns it, shared by the Cassandra and HBase engines:
 * the node stops SIGTERM-then-kill (a kill is logged, an interrupt does not escape), and its
 * directory is cleaned down to the files kept for the report. Starting it, and killing it if the
 * runner itself exits, is {@link ChildJvm}'s.
 */
public final class NodeProcesses {
  private NodeProcesses() {}

  /**
   * SIGTERM, after {@code stopSeconds} a kill; if interrupted, a kill at once (the interrupt is
   * kept for the caller).
   *
   * @param what how the log names the child ("node", "HBase")
   * @return its exit status, or -1 if it would not die
   */
  public static int stop(String name, String what, ChildJvm child, int stopSeconds) {
    try {
      if (!child.stop(stopSeconds)) {
        System.err.printf("[%s] %s %d did not stop within %d s of SIGTERM: killed%n", name, what, child.pid(), stopSeconds);
      }
      return child.exitStatus();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return -1;
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
