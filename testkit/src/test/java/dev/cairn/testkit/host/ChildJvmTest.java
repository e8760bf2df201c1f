package dev.cairn.testkit.host;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

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
}
