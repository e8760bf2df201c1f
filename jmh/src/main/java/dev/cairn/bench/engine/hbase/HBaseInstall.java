package dev.cairn.bench.engine.hbase;

import dev.cairn.bench.engine.node.AdapterBuild;
import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * Where the runner finds HBase for its child servers and its client; none of it is in the
 * runner's jar.
 *
 * <ul>
 *   <li>{@code hbase-lib/}: hbase-server 2.6.1-hadoop3 and its whole runtime closure (hbase-client
 *       and Hadoop included, at the versions HBase declares), copied by {@code hbase-adapter}'s
 *       {@code package} phase, plus {@value #JVM_OPTIONS}, the JDK 17 flags HBase needs, written at
 *       the same time from the adapter pom's {@code hbase.jvm.jpms} (the one list of them);
 *   <li>the plugin jar {@code cairn-hbase-adapter-*.jar} (the shaded one, not {@code original-*}),
 *       which every HBase engine puts on the server's class path, as an operator drops it into
 *       {@code lib/}, so that the four engines differ only in the table's configuration.
 * </ul>
 *
 * <p>Looked up, in order: the system properties {@value #LIB_PROPERTY} and {@value
 * #PLUGIN_PROPERTY}; {@code hbase-adapter/target/} under the working directory; the same under
 * the checkout the runner's jar was built in.
 */
public record HBaseInstall(Path libDir, Path pluginJar, List<String> jvmFlags) {
  public static final String LIB_PROPERTY = "cairn.hbase.lib";
  public static final String PLUGIN_PROPERTY = "cairn.hbase.pluginJar";
  public static final String JVM_OPTIONS = "hbase-jvm17.options";
  static final String BUILD_COMMAND = "mvn -B -ntp -pl hbase-adapter -am package -DskipTests";

  /**
   * @throws IllegalStateException naming the places looked at and the command that builds them
   */
  public static HBaseInstall locate() {
    String libProperty = System.getProperty(LIB_PROPERTY);
    Path lib = null;
    List<Path> looked = new ArrayList<>();
    if (libProperty != null && !libProperty.isBlank()) {
      lib = Path.of(libProperty).toAbsolutePath();
      looked.add(lib);
      if (!isLibDir(lib)) {
        throw missing("-D" + LIB_PROPERTY + "=" + libProperty + " holds no hbase-server jar and " + JVM_OPTIONS, looked);
      }
    } else {
      for (Path t : AdapterBuild.targetDirectories("hbase-adapter")) {
        Path candidate = t.resolve("hbase-lib");
        looked.add(candidate);
        if (isLibDir(candidate)) {
          lib = candidate;
          break;
        }
      }
      if (lib == null) {
        throw missing("HBase's jars (hbase-lib/ with hbase-server and " + JVM_OPTIONS + ") not found", looked);
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
          "the plugin jar (cairn-hbase-adapter-*.jar) not found beside " + looked.get(looked.size() - 1), List.of(dir)));
    }
    return new HBaseInstall(lib, plugin, AdapterBuild.readJvmFlags(lib.resolve(JVM_OPTIONS), BUILD_COMMAND));
  }

  /** The server's class path: its configuration directory, every jar of {@link #libDir}, the plugin if any. */
  public String serverClassPath(Path confDir) {
    String path = confDir + File.pathSeparator + libDir.resolve("*");
    return pluginJar == null ? path : path + File.pathSeparator + pluginJar;
  }

  /** The same HBase without the plugin jar: a server from which the plugin has been removed. */
  public HBaseInstall withoutPlugin() {
    return new HBaseInstall(libDir, null, jvmFlags);
  }

  /** The jars of {@link #libDir}, sorted: the client's class path (the plugin is the server's only). */
  public List<Path> libJars() {
    try (Stream<Path> s = Files.list(libDir)) {
      return s.filter(p -> p.getFileName().toString().endsWith(".jar")).sorted().toList();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static boolean isLibDir(Path dir) {
    if (!Files.isDirectory(dir) || !Files.isRegularFile(dir.resolve(JVM_OPTIONS))) {
      return false;
    }
    try (Stream<Path> s = Files.list(dir)) {
      return s.anyMatch(p -> p.getFileName().toString().startsWith("hbase-server-"));
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
        return n.startsWith("cairn-hbase-adapter-") && n.endsWith(".jar")
            && !n.endsWith("-sources.jar") && !n.endsWith("-tests.jar") && !n.endsWith("-javadoc.jar");
      }).sorted().findFirst();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static IllegalStateException missing(String what, List<Path> looked) {
    return new IllegalStateException(what + " (looked in " + looked + "). Build them from the repo root with `"
        + BUILD_COMMAND + "` and run the runner from there, or set -D" + LIB_PROPERTY + "=DIR and -D"
        + PLUGIN_PROPERTY + "=JAR");
  }
}
