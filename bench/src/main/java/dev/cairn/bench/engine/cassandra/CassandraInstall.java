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
 * ({@code bench/target/cairn-bench.jar}'s {@code ../..}).
 */
public record CassandraInstall(Path libDir, Path pluginJar, List<String> jvmFlags) {
  public static final String LIB_PROPERTY = "cairn.cassandra.lib";
  public static final String PLUGIN_PROPERTY = "cairn.cassandra.pluginJar";
  public static final String JVM_OPTIONS = "cassandra-jvm17.options";
  static final AdapterBuild BUILD = new AdapterBuild("cassandra-adapter", "cassandra-lib", "cassandra-all-", "cairn-cassandra-adapter-", JVM_OPTIONS,
      LIB_PROPERTY, PLUGIN_PROPERTY);

  /**
   * @throws IllegalStateException naming the places looked at and the command that builds them
   */
  public static CassandraInstall locate() {
    AdapterBuild.Located found = BUILD.locate();
    return new CassandraInstall(found.libDir(), found.pluginJar(), found.jvmFlags());
  }

  /** The child JVM's class path: every jar of {@link #libDir} (a wildcard entry), then the plugin. */
  public String classPath() {
    return libDir.resolve("*") + java.io.File.pathSeparator + pluginJar;
  }
}
