package dev.cairn.cassandra.testing;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The child-node fixture's failure path: a child that cannot start is reported with the tail of
 * its log. The install itself (the packaged jar on child nodes, the README's switch, a restart
 * that loads the strategy from the jar, the switch back) is {@link ClusterIT}'s. Runs under
 * failsafe, after {@code package}, so the jar is the one the build made.
 */
class ChildNodeIT {
  @Test
  @Timeout(value = 3, unit = TimeUnit.MINUTES)
  void aChildThatCannotStartIsReportedWithTheTailOfItsLog() throws Exception {
    try (ChildNode node = ChildNode.create("child-node-bad-yaml", List.of(PluginJar.fromFailsafe()))) {
      Files.writeString(node.config().yaml(), "no_such_cassandra_option: 1\n",
          StandardOpenOption.APPEND);
      AssertionError e = assertThrows(AssertionError.class, node::start);
      assertTrue(e.getMessage().contains("child node exited with status 3"), e.getMessage());
      assertTrue(e.getMessage().contains("no_such_cassandra_option"), e.getMessage());
      assertFalse(node.isRunning());
    }
  }
}
