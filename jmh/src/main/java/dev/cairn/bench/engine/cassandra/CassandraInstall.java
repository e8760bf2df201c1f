package dev.cairn.bench.engine.cassandra;

import dev.cairn.bench.engine.node.AdapterBuild;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * Where the runner finds Cassandra for its child nodes; none of it is in the runner's jar.
 *
 * <ul>
 *   <li>{@code cassandra-lib/}: cassandra-all 5.0.9 and its dependencies, copied by {@code
 *       cassandra-adapter}'s {@code package} phase, plus {@value #JVM_OPTIONS}, the JDK 17 flags
 *       Cassandra needs, written at the same time from the adapter pom's {@code cassandra.jvm.jpms}
 *       (the one list of them; the adapter's tests use the same property);
 *   <li>the plugin jar {@code cairn-cassandra-adapter-*.jar} (the shaded one, not {@code
 *       original-*}), which every Cassandra engine puts on the node's class path, as an operator
 *       drops it into {@code lib/}, so that the three engines differ only in the table's options.
 * </ul>
 *
 * <p>Looked up, in order: the system properties {@value #LIB_PROPERTY} and {@value
 * #PLUGIN_PROPERTY}; {@code cassandra-adapter/target/} under the working directory (the repo root,
 * where the README's commands run); the same under the checkout the runner's jar was built in
 * ({@code jmh/target/cairn-bench.jar}'s {@code ../..}).
 */
public record CassandraInstall(Path libDir, Path pluginJar, List<String> jvmFlags) {
  public static final String LIB_PROPERTY = "cairn.cassandra.lib";
  public static final String PLUGIN_PROPERTY = "cairn.cassandra.pluginJar";
  public static final String JVM_OPTIONS = "cassandra-jvm17.options";
  static final String BUILD_COMMAND = "mvn -B -ntp -pl cassandra-adapter -am package -DskipTests";

  /**
   * @throws IllegalStateException naming the places looked at and the command that builds them
   */
  public static CassandraInstall locate() {
    List<Path> targets = AdapterBuild.targetDirectories("cassandra-adapter");

    String libProperty = System.getProperty(LIB_PROPERTY);
    Path lib = null;
    List<Path> looked = new ArrayList<>();
    if (libProperty != null && !libProperty.isBlank()) {
      lib = Path.of(libProperty).toAbsolutePath();
      looked.add(lib);
      if (!isLibDir(lib)) {
        throw missing("-D" + LIB_PROPERTY + "=" + libProperty + " holds no cassandra-all jar and "
            + JVM_OPTIONS, looked);
      }
    } else {
      for (Path t : targets) {
        Path candidate = t.resolve("cassandra-lib");
        looked.add(candidate);
        if (isLibDir(candidate)) {
          lib = candidate;
          break;
        }
      }
      if (lib == null) {
        throw missing("Cassandra's jars (cassandra-lib/ with cassandra-all and " + JVM_OPTIONS + ") not found", looked);
      }
    }

    String pluginProperty = System.getProperty(PLUGIN_PROPERTY);
    Path plugin;
    if (pluginProperty != null && !pluginProperty.isBlank()) {
      plugin = Path.of(pluginProperty).toAbsolutePath();
      if (!Files.isRegularFile(plugin)) {
        throw missing("-D" + PLUGIN_PROPERTY + "=" + pluginProperty + " is not a file", List.of(plugin));
      }
    } else {
      Path dir = lib.getParent();
      plugin = pluginJarIn(dir).orElseThrow(() -> missing(
          "the plugin jar (cairn-cassandra-adapter-*.jar) not found beside " + looked.get(looked.size() - 1),
          List.of(dir)));
    }
    return new CassandraInstall(lib, plugin, AdapterBuild.readJvmFlags(lib.resolve(JVM_OPTIONS), BUILD_COMMAND));
  }

  /** The child JVM's class path: every jar of {@link #libDir} (a wildcard entry), then the plugin. */
  public String classPath() {
    return libDir.resolve("*") + java.io.File.pathSeparator + pluginJar;
  }

  static boolean isLibDir(Path dir) {
    if (!Files.isDirectory(dir) || !Files.isRegularFile(dir.resolve(JVM_OPTIONS))) {
      return false;
    }
    try (Stream<Path> s = Files.list(dir)) {
      return s.anyMatch(p -> p.getFileName().toString().startsWith("cassandra-all-"));
    } catch (IOException e) {
      return false;
    }
  }

  /** The shaded plugin jar in {@code dir}: not {@code original-*}, sources or tests. */
  static Optional<Path> pluginJarIn(Path dir) {
    if (!Files.isDirectory(dir)) {
      return Optional.empty();
    }
    try (Stream<Path> s = Files.list(dir)) {
      return s.filter(p -> {
        String n = p.getFileName().toString();
        return n.startsWith("cairn-cassandra-adapter-") && n.endsWith(".jar")
            && !n.endsWith("-sources.jar") && !n.endsWith("-tests.jar") && !n.endsWith("-javadoc.jar");
      }).sorted().findFirst();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Whitespace-separated arguments; lines starting with {@code #} are comments. */
  static List<String> parseJvmFlags(String text) {
    return AdapterBuild.parseJvmFlags(text);
  }

  private static IllegalStateException missing(String what, List<Path> looked) {
    return new IllegalStateException(what + " (looked in " + looked + "). Build them from the repo root with `"
        + BUILD_COMMAND + "` and run the runner from there, or set -D" + LIB_PROPERTY + "=DIR and -D"
        + PLUGIN_PROPERTY + "=JAR");
  }
}
