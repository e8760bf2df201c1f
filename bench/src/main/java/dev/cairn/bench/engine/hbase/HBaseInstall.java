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
  static final AdapterBuild BUILD = new AdapterBuild("hbase-adapter", "hbase-lib", "hbase-server-", "cairn-hbase-adapter-", JVM_OPTIONS,
      LIB_PROPERTY, PLUGIN_PROPERTY);

  /**
   * @throws IllegalStateException naming the places looked at and the command that builds them
   */
  public static HBaseInstall locate() {
    AdapterBuild.Located found = BUILD.locate();
    return new HBaseInstall(found.libDir(), found.pluginJar(), found.jvmFlags());
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
}
