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

/**
 * Where an adapter module's build output is, for engines whose server runs on jars the runner's
 * jar does not carry ({@code cassandra-adapter/target/cassandra-lib}, {@code
 * hbase-adapter/target/hbase-lib}), and the JVM flags file such a directory holds.
 */
public final class AdapterBuild {
  private AdapterBuild() {}

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

  /** The checkout the runner's jar sits in, if it runs from {@code <root>/jmh/target/*.jar}. */
  private static Optional<Path> runnerCheckout() {
    try {
      var source = AdapterBuild.class.getProtectionDomain().getCodeSource();
      if (source == null) {
        return Optional.empty();
      }
      Path location = Path.of(source.getLocation().toURI()).toAbsolutePath();
      // .../jmh/target/cairn-bench.jar or .../jmh/target/classes
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
