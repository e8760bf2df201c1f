package dev.cairn.testkit.host;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The child-JVM pieces on real sockets and real child processes: free ports, the log's tail, YAML
 * quoting, the SIGTERM-then-kill stop, and the {@link ChildJvm} launcher on a small Java child
 * ({@link ChildMain}).
 */
class ChildJvmTest {

  @Test
  void freePortsAreDistinctAndAcceptOnlyWhileSomethingListens() throws Exception {
    int[] ports = LoopbackPorts.free(3);
    assertEquals(3, Arrays.stream(ports).distinct().count());
    assertFalse(LoopbackPorts.accepts(ports[0]));
    try (ServerSocket s = new ServerSocket(ports[0], 1, InetAddress.getLoopbackAddress())) {
      assertTrue(LoopbackPorts.accepts(ports[0]));
    }
  }

  @Test
  void theTailQuotesTheLastLines(@TempDir Path dir) throws Exception {
    Path log = dir.resolve("node.log");
    Files.writeString(log, "one\ntwo\nthree\n");
    assertEquals("last 2 lines of " + log + ":\ntwo\nthree", ChildLog.tail(log, 2));
    assertTrue(ChildLog.tail(dir.resolve("missing.log"), 2).startsWith("(could not read "));
  }

  @Test
  void yamlQuotesAreDoubled() {
    assertEquals("'/tmp/it''s here'", YamlText.quoted("/tmp/it's here"));
  }

  @Test
  void aChildThatHonoursSigtermStopsWithoutAKill() throws Exception {
    Process child = new ProcessBuilder("sleep", "60").start();
    assertTrue(ChildProcesses.stop(child, 10));
    assertFalse(child.isAlive());
    assertTrue(ChildProcesses.stop(child, 10), "an exited child is left alone");
  }

  @Test
  void aChildThatIgnoresSigtermIsKilledAfterTheGrace() throws Exception {
    Process child = new ProcessBuilder("sh", "-c", "trap '' TERM; echo ready; sleep 60").start();
    child.getInputStream().read(); // the trap is set once it has printed
    assertFalse(ChildProcesses.stop(child, 1));
    assertFalse(child.isAlive());
  }

  @Test
  void aChildJvmRunsInItsDirectoryLogsThereAndStopsOnSigterm(@TempDir Path dir) throws Exception {
    Path log = dir.resolve("child.log");
    ChildJvmLaunch launch = ChildJvm.launch(command("ready"), dir, log, Duration.ofSeconds(60))
        .logHeader(line -> "== test: " + line + "\n")
        .wrappedBy(cmd -> {
          List<String> wrapped = new ArrayList<>(List.of("/usr/bin/env", "CAIRN_CHILD_ADDED=yes"));
          wrapped.addAll(cmd);
          return wrapped;
        })
        .withoutEnvironment(Set.of("HOME"));
    ChildJvm child = launch.start();
    try {
      child.awaitReady(() -> Files.exists(dir.resolve("ready")));
      assertTrue(child.isAlive());
      assertEquals(-1, child.exitStatus());
      List<String> lines = Files.readAllLines(log);
      assertEquals("== test: " + String.join(" ", launch.commandLine()), lines.get(0));
      assertTrue(lines.get(0).startsWith("== test: /usr/bin/env CAIRN_CHILD_ADDED=yes " + JavaCommand.currentJava()),
          lines.get(0));
      assertTrue(lines.contains("cwd=" + dir.toRealPath()), "the child runs in its directory: " + lines);
      assertTrue(lines.contains("HOME=null"), "HOME is not inherited: " + lines);
      assertTrue(lines.contains("CAIRN_CHILD_ADDED=yes"), "the wrapper ran the command: " + lines);
    } finally {
      assertTrue(child.stop(30), "a JVM exits on SIGTERM");
    }
    assertFalse(child.isAlive());
    assertEquals(143, child.exitStatus(), "128 + SIGTERM");
  }

  @Test
  void aChildJvmThatExitsBeforeItIsReadyIsReportedWithItsStatus(@TempDir Path dir) throws Exception {
    ChildJvm child = ChildJvm.launch(command("exit-3"), dir, dir.resolve("child.log"), Duration.ofSeconds(60)).start();
    ChildNotReadyException e = assertThrows(ChildNotReadyException.class, () -> child.awaitReady(() -> false));
    assertTrue(e.exited());
    assertEquals(3, e.exitStatus());
    assertTrue(child.logTail(5).contains("cwd="), child.logTail(5));
    assertTrue(Files.readString(dir.resolve("child.log")).startsWith("===== " + ChildMain.class.getName() + ": "),
        "the default header names the main class");
  }

  @Test
  void aChildJvmNotReadyByTheDeadlineIsLeftRunningForTheCallerToKill(@TempDir Path dir) throws Exception {
    ChildJvm child = ChildJvm.launch(command("never"), dir, dir.resolve("child.log"), Duration.ofSeconds(1)).start();
    try {
      ChildNotReadyException e = assertThrows(ChildNotReadyException.class, () -> child.awaitReady(() -> false));
      assertFalse(e.exited());
      assertEquals(-1, e.exitStatus());
      assertTrue(child.sinceStart().compareTo(Duration.ofSeconds(1)) >= 0);
      assertTrue(child.isAlive());
    } finally {
      child.kill();
    }
    assertFalse(child.isAlive());
    assertEquals(137, child.exitStatus(), "128 + SIGKILL");
  }

  /** A java command running {@link ChildMain} from this module's test classes. */
  private static JavaCommand command(String mode) throws Exception {
    Path classes = Path.of(ChildMain.class.getProtectionDomain().getCodeSource().getLocation().toURI());
    return new JavaCommand(JavaCommand.currentJava(), List.of("-Xmx32m", "-XX:TieredStopAtLevel=1"),
        JavaCommand.classPath(List.of(classes)), ChildMain.class.getName(), List.of(mode));
  }
}
