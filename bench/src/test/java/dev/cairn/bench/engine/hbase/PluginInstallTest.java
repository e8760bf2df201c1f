package dev.cairn.bench.engine.hbase;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.cairn.config.Compression;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;
import java.util.jar.JarFile;
import java.util.zip.ZipEntry;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The plugin installed the way an operator installs it: the built jar alone beside HBase's own
 * jars on a standalone HBase's class path (a child JVM), enabled for one table by its {@code
 * CONFIGURATION}, and switched back with the table's configuration: the regions reopen on HBase's
 * own policy, the plugin lets go of the store, and the data stays. Skipped, with the build command, when hbase-adapter has
 * not been packaged (it is before jmh in the project's build, so `mvn verify` runs it).
 */
class PluginInstallTest {
  private static final String POLICY_KEY = "hbase.hstore.defaultengine.compactionpolicy.class";
  private static final String POLICY = "dev.cairn.hbase.CairnCompactionPolicy";
  private static final String BEANS = "dev.cairn.hbase:type=CompactionPolicy,*";
  /** HBase's own archive cleaning: this server's regions close and reopen (see the setting). */
  private static final HBaseServer.Settings SMALL =
      new HBaseServer.Settings(384L << 20, 16L << 20, 1L << 20, 128L << 20, 0.01, 64L << 20, Compression.lz4(), false);
  private static HBaseInstall install;

  @BeforeAll
  static void locateTheBuiltPlugin() {
    try {
      install = HBaseInstall.locate();
    } catch (IllegalStateException e) {
      Assumptions.abort("hbase-adapter not packaged, so the install check is skipped: " + e.getMessage());
    }
  }

  @Test
  void thePluginJarCarriesCairnsClassesOnly() throws IOException {
    List<String> foreign = new ArrayList<>();
    try (JarFile jar = new JarFile(install.pluginJar().toFile())) {
      for (ZipEntry e : Collections.list(jar.entries())) {
        if (!e.getName().startsWith("dev/cairn/") && !e.getName().startsWith("META-INF/") && !e.getName().equals("dev/")) {
          foreign.add(e.getName());
        }
      }
      assertTrue(jar.getEntry("dev/cairn/hbase/CairnCompactionPolicy.class") != null, "the policy is in the jar");
      assertTrue(jar.getEntry("dev/cairn/hbase/tiered/TieredDlcPolicy.class") != null,
          "the policy's planning is in the jar");
      assertTrue(jar.getEntry("dev/cairn/compaction/dlc/LoadModel.class") != null
          && jar.getEntry("dev/cairn/model/KeyRange.class") != null,
          "the shared planning and its vocabulary are in the jar");
    }
    assertEquals(List.of(), foreign, "nothing HBase or its libraries already have");
  }

  @Test
  void enabledByTableConfigurationAndSwitchedBack(@TempDir Path dir) throws Exception {
    Path data = dir.resolve("db");
    int rows = 3000;
    try (HBaseServer server = HBaseServer.start("install-with-plugin", install, data, SMALL);
        HBaseClient client = HBaseClientLoader.newClient(install.libJars())) {
      client.connect(server.launchSettings().clientSettings());
      // As an operator would run it: the plugin beside a family compressed with HBase's own LZ4
      // module (the region server refuses the table if that codec does not load).
      client.createTable(new HBaseClient.TableSpec("installed", "f", 4096, 1L << 20, "LZ4", Map.of(POLICY_KEY, POLICY)));
      assertTrue(client.describeTable().contains("COMPRESSION => 'LZ4'"), client.describeTable());
      // Three flushes: the store needs a compaction and asks its policy, which registers its bean.
      for (int batch = 0; batch < 3; batch++) {
        for (int i = batch * rows / 3; i < (batch + 1) * rows / 3; i++) {
          client.put(key(i), value(i));
        }
        client.flushRegions();
      }
      waitFor(server, "the plugin's bean", () -> !server.jmx().beans(BEANS).isEmpty());
      String bean = server.jmx().beans(BEANS).iterator().next().toString();
      assertTrue(bean.contains("table=\"installed\""), bean);
      assertEquals(Boolean.FALSE, server.jmx().attribute(bean, "DryRun"), "the policy decides (no dry run)");

      // Switch back: the regions reopen on HBase's own policy, and the plugin lets go of the store.
      try {
        client.setTableConfiguration(POLICY_KEY, null);
      } catch (RuntimeException e) {
        throw new AssertionError("switching back failed; server log:\n" + server.logTail(), e);
      }
      waitFor(server, "the plugin's bean to go", () -> server.jmx().beans(BEANS).isEmpty());
      assertTrue(!client.describeTable().contains(POLICY), client.describeTable());
      for (int i = 0; i < rows; i += 7) {
        assertArrayEquals(value(i), client.get(key(i)), "row " + i + " after switching back");
      }
    }
  }

  private static byte[] key(int i) {
    return String.format("row%06d", i).getBytes(StandardCharsets.UTF_8);
  }

  private static byte[] value(int i) {
    return ("value-" + i + "-" + "x".repeat(200)).getBytes(StandardCharsets.UTF_8);
  }

  private static void waitFor(HBaseServer server, String what, BooleanSupplier condition) throws InterruptedException {
    long deadline = System.nanoTime() + 60_000_000_000L;
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        fail("timed out waiting for " + what + "; server log:\n" + server.logTail());
      }
      Thread.sleep(250);
    }
  }
}
