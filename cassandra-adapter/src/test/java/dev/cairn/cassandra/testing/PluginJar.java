package dev.cairn.cassandra.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.List;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;

/** The plugin jar the build packaged, as the integration tests install it on their child nodes. */
public final class PluginJar {
  private PluginJar() {}

  /**
   * The module's packaged jar (failsafe's {@code cairn.cassandra.pluginJar}); checks that it holds
   * Cairn's classes and nothing else (no Cassandra, no libraries).
   */
  public static Path fromFailsafe() throws IOException {
    String property = System.getProperty("cairn.cassandra.pluginJar");
    assertTrue(property != null, "cairn.cassandra.pluginJar is not set: run through failsafe");
    Path jar = Path.of(property).toAbsolutePath();
    assertTrue(Files.isRegularFile(jar), "no plugin jar at " + jar + ": run `mvn verify`");
    List<String> foreign = new ArrayList<>();
    boolean compaction = false;
    try (JarFile file = new JarFile(jar.toFile())) {
      for (Enumeration<JarEntry> e = file.entries(); e.hasMoreElements(); ) {
        String name = e.nextElement().getName();
        compaction |= name.startsWith("dev/cairn/compaction/") && name.endsWith(".class");
        if (!name.startsWith("dev/cairn/") && !name.startsWith("META-INF/")
            && !name.equals("dev/")) {
          foreign.add(name);
        }
      }
    }
    assertTrue(compaction, "no cairn-compaction classes in " + jar);
    assertEquals(List.of(), foreign, "the plugin jar carries more than Cairn's classes: " + jar);
    return jar;
  }
}
