package dev.cairn.bench.engine.node;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * Where an adapter module's build output is, for engines whose server runs on jars the runner's
 * jar does not carry ({@code cassandra-adapter/target/cassandra-lib}, {@code
 * hbase-adapter/target/hbase-lib}), and the JVM flags file such a directory holds.
 *
 * <p>Looked up, in order: the system properties {@link #libProperty} and {@link #pluginProperty};
 * {@code <module>/target/} under the working directory (the repo root, where the README's commands
 * run); the same under the checkout the runner's jar was built in ({@code
 * bench/target/cairn-bench.jar}'s {@code ../..}). The plugin jar is looked for beside the lib
 * directory.
 *
 * @param module the adapter's module directory ({@code hbase-adapter})
 * @param libDirName the directory its {@code package} phase fills under {@code target/}
 * @param hostJarPrefix a jar that only a complete lib directory holds ({@code hbase-server-})
 * @param pluginJarPrefix the shaded plugin jar's name ({@code cairn-hbase-adapter-})
 * @param jvmOptions the JDK 17 flags file in the lib directory
 * @param libProperty the system property that names the lib directory instead
 * @param pluginProperty the system property that names the plugin jar instead
 */
public record AdapterBuild(String module, String libDirName, String hostJarPrefix, String pluginJarPrefix,
    String jvmOptions, String libProperty, String pluginProperty) {

  /** What {@link #locate} found. */
  public record Located(Path libDir, Path pluginJar, List<String> jvmFlags) {}

  /** The command that builds the lib directory and the plugin jar, from the repo root. */
  public String buildCommand() {
    return "mvn -B -ntp -pl " + module + " -am package -DskipTests";
  }

  /**
   * @throws IllegalStateException naming the places looked at and the command that builds them
   */
  public Located locate() {
    String libSetting = System.getProperty(libProperty);
    Path lib = null;
    List<Path> looked = new ArrayList<>();
    if (libSetting != null && !libSetting.isBlank()) {
      lib = Path.of(libSetting).toAbsolutePath();
      looked.add(lib);
      if (!isLibDir(lib)) {
        throw missing("-D" + libProperty + "=" + libSetting + " holds no " + hostJarPrefix + "*.jar and " + jvmOptions,
            looked);
      }
    } else {
      for (Path t : targetDirectories(module)) {
        Path candidate = t.resolve(libDirName);
        looked.add(candidate);
        if (isLibDir(candidate)) {
          lib = candidate;
          break;
        }
      }
      if (lib == null) {
        throw missing("the host's jars (" + libDirName + "/ with " + hostJarPrefix + "*.jar and " + jvmOptions
            + ") not found", looked);
      }
    }

    String pluginSetting = System.getProperty(pluginProperty);
    Path plugin;
    if (pluginSetting != null && !pluginSetting.isBlank()) {
      plugin = Path.of(pluginSetting).toAbsolutePath();
      if (!Files.isRegularFile(plugin)) {
        throw missing("-D" + pluginProperty + "=" + pluginSetting + " is not a file", List.of(plugin));
      }
    } else {
      Path dir = lib.getParent();
      plugin = pluginJarIn(dir).orElseThrow(() -> missing(
          "the plugin jar (" + pluginJarPrefix + "*.jar) not found beside " + looked.get(looked.size() - 1),
          List.of(dir)));
    }
    return new Located(lib, plugin, readJvmFlags(lib.resolve(jvmOptions), buildCommand()));
  }

  boolean isLibDir(Path dir) {
    if (!Files.isDirectory(dir) || !Files.isRegularFile(dir.resolve(jvmOptions))) {
      return false;
    }
    try (Stream<Path> s = Files.list(dir)) {
      return s.anyMatch(p -> p.getFileName().toString().startsWith(hostJarPrefix));
    } catch (IOException e) {
      return false;
    }
  }

  /** The shaded plugin jar in {@code dir}: not {@code original-*}, sources or tests. */
  public Optional<Path> pluginJarIn(Path dir) {
    if (!Files.isDirectory(dir)) {
      return Optional.empty();
    }
    try (Stream<Path> s = Files.list(dir)) {
      return s.filter(p -> {
        String n = p.getFileName().toString();
        return n.startsWith(pluginJarPrefix) && n.endsWith(".jar")
            && !n.endsWith("-sources.jar") && !n.endsWith("-tests.jar") && !n.endsWith("-javadoc.jar");
      }).sorted().findFirst();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private IllegalStateException missing(String what, List<Path> looked) {
    return new IllegalStateException(what + " (looked in " + looked + "). Build them from the repo root with `"
        + buildCommand() + "` and run the runner from there, or set -D" + libProperty + "=DIR and -D"
        + pluginProperty + "=JAR");
  }

  /**
   * {@code <module>/target} under the working directory (the repo root, where the README's
   * commands run), then under the checkout the runner's jar was built in.
   */
  public static List<Path> targetDirectories(String module) {
    Path target = Path.of(module, "target");
    List<Path> dirs = new ArrayList<>();
    dirs.add(Path.of("").toAbsolutePath().resolve(target));
    runnerCheckout().map(root -> root.resolve(target)).filter(t -> !dirs.contains(t)).ifPresent(dirs::add);
    return dirs;
  }

  /** Whitespace-separated arguments; lines starting with {@code #} are comments. */
  public static List<String> parseJvmFlags(String text) {
    List<String> flags = new ArrayList<>();
    for (String line : text.split("\n")) {
      String t = line.trim();
      if (t.isEmpty() || t.startsWith("#")) {
        continue;
      }
      flags.addAll(Arrays.asList(t.split("\\s+")));
    }
    return flags;
  }

  /**
   * The flags of a JVM options file, which must open at least one package (a file that does not
   * was not written by the adapter's build).
   */
  public static List<String> readJvmFlags(Path file, String buildCommand) {
    try {
      List<String> flags = parseJvmFlags(Files.readString(file, StandardCharsets.UTF_8));
      if (flags.stream().noneMatch(f -> f.startsWith("--add-opens"))) {
        throw new IllegalStateException(file + " holds no --add-opens flag: rebuild it with `" + buildCommand + "`");
      }
      return List.copyOf(flags);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + file, e);
    }
  }

  /** The checkout the runner's jar sits in, if it runs from {@code <root>/bench/target/*.jar}. */
  private static Optional<Path> runnerCheckout() {
    try {
      var source = AdapterBuild.class.getProtectionDomain().getCodeSource();
      if (source == null) {
        return Optional.empty();
      }
      Path location = Path.of(source.getLocation().toURI()).toAbsolutePath();
      // .../bench/target/cairn-bench.jar or .../bench/target/classes
      Path target = location.getParent();
      if (target == null || target.getParent() == null || target.getParent().getParent() == null) {
        return Optional.empty();
      }
      return Optional.of(target.getParent().getParent());
    } catch (URISyntaxException | RuntimeException e) {
      return Optional.empty();
    }
  }
}
