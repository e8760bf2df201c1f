package dev.cairn.layout;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The modules import one another as docs/architecture.md ("Modules") says they may: every import
 * of a Cairn class in a module's main sources names a package that module may use. A new import
 * across the layers fails here, naming the file and the line, until the table in the docs and
 * {@link #ALLOWED} change together on purpose; so does a package whose sources two modules share.
 */
class ImportRulesTest {
  private static final Pattern CAIRN_IMPORT = Pattern.compile("^import (?:static )?(dev\\.cairn\\.[\\w.]+);");

  /** Per module, the package prefixes of Cairn's that its main sources may import. */
  private static final Map<String, List<String>> ALLOWED = Map.ofEntries(
      Map.entry("testkit", List.of("dev.cairn.testkit.")),
      Map.entry("model", List.of("dev.cairn.model.")),
      Map.entry("fs", List.of("dev.cairn.fs.")),
      Map.entry("cache", List.of("dev.cairn.cache.")),
      Map.entry("compaction", List.of("dev.cairn.compaction.", "dev.cairn.model.")),
      Map.entry("core", List.of("dev.cairn.")),
      Map.entry("tools", List.of("dev.cairn.")),
      // The API only (dev.cairn's classes), as any application would.
      Map.entry("micrometer", List.of("dev.cairn.micrometer.", "dev.cairn.Cairn", "dev.cairn.StatsAttributes")),
      Map.entry("hbase-adapter", List.of("dev.cairn.hbase.", "dev.cairn.compaction.", "dev.cairn.model.")),
      Map.entry("cassandra-adapter", List.of("dev.cairn.cassandra.", "dev.cairn.compaction.", "dev.cairn.model.")),
      Map.entry("bench", List.of("dev.cairn.")));

  /** Packages of other modules that core's main sources must not import even though they start with dev.cairn. */
  private static final List<String> NOT_IN_CORE = List.of("dev.cairn.tools.", "dev.cairn.bench.", "dev.cairn.hbase.",
      "dev.cairn.cassandra.", "dev.cairn.testkit.");

  /** The engine's storage layer takes the vocabulary (dev.cairn.model), never a policy. */
  private static final List<String> STORAGE_PACKAGES = List.of("key", "table", "version", "wal", "memtable", "iter", "util");

  /**
   * The engine's layers inside core (docs/architecture.md, "The engine's packages"): per package
   * under dev.cairn.db, the engine packages it may import. The facade package, dev.cairn.db itself,
   * is the composition root and may import them all; nothing below it imports it.
   */
  private static final Map<String, List<String>> ENGINE_LAYERS = Map.of(
      "base", List.of(),
      "write", List.of("base"),
      "read", List.of("base", "write"),
      "compact", List.of("base"),
      "buffer", List.of("base", "read", "compact"));

  private static Path root() {
    Path here = Path.of("").toAbsolutePath();
    return Files.exists(here.resolve("model")) ? here : here.getParent();
  }

  @Test
  void everyModuleImportsOnlyWhatItsLayerMay() throws IOException {
    List<String> violations = new ArrayList<>();
    for (Map.Entry<String, List<String>> module : ALLOWED.entrySet()) {
      Path sources = root().resolve(module.getKey()).resolve("src/main/java");
      assertTrue(Files.isDirectory(sources), "no sources at " + sources);
      for (Path file : javaFiles(sources)) {
        String relative = root().relativize(file).toString();
        boolean storage = module.getKey().equals("core") && STORAGE_PACKAGES.stream()
            .anyMatch(p -> relative.contains("/dev/cairn/" + p + "/"));
        forEachCairnImport(file, (line, imported) -> {
          boolean allowed = module.getValue().stream().anyMatch(imported::startsWith);
          if (module.getKey().equals("core") && NOT_IN_CORE.stream().anyMatch(imported::startsWith)) {
            allowed = false;
          }
          if (storage && imported.startsWith("dev.cairn.compaction.")) {
            allowed = false;
          }
          if (!allowed) {
            violations.add(relative + ":" + line + " imports " + imported);
          }
        });
      }
    }
    assertEquals(List.of(), violations, "imports across the layers of docs/architecture.md, \"Modules\"");
  }

  @Test
  void engineLayersImportOnlyTheLayersBelow() throws IOException {
    Path sources = root().resolve("core/src/main/java");
    Path engine = sources.resolve("dev/cairn/db");
    List<String> violations = new ArrayList<>();
    for (Path file : javaFiles(sources)) {
      Path pkg = sources.relativize(file.getParent());
      String relative = root().relativize(file).toString();
      String layer = file.getParent().startsWith(engine) && !file.getParent().equals(engine)
          ? engine.relativize(file.getParent()).getName(0).toString() : null;
      boolean facade = file.getParent().equals(engine);
      boolean api = pkg.toString().equals("dev/cairn");
      assertTrue(layer == null || ENGINE_LAYERS.containsKey(layer), "an engine package with no layer: " + pkg);
      forEachCairnImport(file, (line, imported) -> {
        if (!imported.startsWith("dev.cairn.db.") || facade) {
          return;
        }
        String target = imported.substring("dev.cairn.db.".length());
        String targetLayer = Character.isUpperCase(target.charAt(0)) ? "" : target.substring(0, target.indexOf('.'));
        boolean allowed = layer != null
            ? ENGINE_LAYERS.get(layer).contains(targetLayer)
            : api && targetLayer.isEmpty(); // the API opens the engine through its facade, and nothing else does
        if (!allowed) {
          violations.add(relative + ":" + line + " imports " + imported);
        }
      });
    }
    assertEquals(List.of(), violations, "imports against the engine's layers, docs/architecture.md");
  }

  /** A package's main sources live in one module: a package split across two jars cannot become a JPMS module. */
  @Test
  void noPackageIsSplitAcrossModules() throws IOException {
    Map<String, java.util.Set<String>> modulesByPackage = new java.util.TreeMap<>();
    for (String module : ALLOWED.keySet()) {
      Path sources = root().resolve(module).resolve("src/main/java");
      for (Path file : javaFiles(sources)) {
        if (file.getFileName().toString().equals("module-info.java")) {
          continue;
        }
        String pkg = sources.relativize(file.getParent()).toString().replace('/', '.');
        modulesByPackage.computeIfAbsent(pkg, k -> new java.util.TreeSet<>()).add(module);
      }
    }
    List<String> split = modulesByPackage.entrySet().stream().filter(e -> e.getValue().size() > 1)
        .map(e -> e.getKey() + " in " + e.getValue()).toList();
    assertEquals(List.of(), split, "packages whose main sources are in more than one module");
  }

  private interface ImportVisitor {
    void visit(int line, String imported);
  }

  private static void forEachCairnImport(Path file, ImportVisitor visitor) {
    try {
      List<String> lines = Files.readAllLines(file);
      for (int i = 0; i < lines.size(); i++) {
        Matcher m = CAIRN_IMPORT.matcher(lines.get(i));
        if (m.find()) {
          visitor.visit(i + 1, m.group(1));
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static List<Path> javaFiles(Path dir) throws IOException {
    try (Stream<Path> files = Files.walk(dir)) {
      return files.filter(p -> p.toString().endsWith(".java")).sorted().toList();
    }
  }
}
