package dev.cairn;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.github.benmanes.caffeine.cache.Caffeine;
import dev.cairn.cache.CacheStats;
import dev.cairn.compaction.buffer.BufferConfig;
import dev.cairn.fs.FileSystem;
import dev.cairn.model.KeyRange;
import io.netty.buffer.ByteBuf;
import io.netty.util.ReferenceCounted;
import java.lang.module.Configuration;
import java.lang.module.ModuleDescriptor;
import java.lang.module.ModuleFinder;
import java.lang.reflect.Method;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Holds the module descriptors to the API: {@code dev.cairn} exports the API packages and nothing
 * else, every type the API reaches ({@link ApiSurfaceTest}) is in a package its module exports to
 * whoever reads {@code dev.cairn}, and the engine's modules resolve and run as a module layer, as
 * they do for an application on the module path. (The tests themselves run on the class path.)
 */
class ModuleDescriptorTest {
  private static final List<Class<?>> CAIRN_MODULES =
      List.of(Cairn.class, FileSystem.class, CacheStats.class, BufferConfig.class, KeyRange.class);
  private static final List<Class<?>> LIBRARIES = List.of(Caffeine.class, ByteBuf.class, ReferenceCounted.class);

  @Test
  void theEngineExportsOnlyTheApiPackages() throws Exception {
    ModuleDescriptor engine = find("dev.cairn");
    Set<String> exports = engine.exports().stream()
        .peek(e -> assertTrue(!e.isQualified(), e + " is exported to named modules only"))
        .map(ModuleDescriptor.Exports::source)
        .collect(Collectors.toCollection(TreeSet::new));
    assertEquals(Set.of("dev.cairn", "dev.cairn.config"), exports);
  }

  @Test
  void everyTypeTheApiReachesIsExportedToTheEnginesReaders() throws Exception {
    Set<String> visible = new HashSet<>();
    addExportsOfReadable(find("dev.cairn"), visible);
    Set<String> hidden = new TreeSet<>();
    for (String type : ApiSurfaceTest.reachableApiTypes()) {
      String pkg = type.substring(0, type.lastIndexOf('.'));
      if (!visible.contains(pkg)) {
        hidden.add(type);
      }
    }
    assertEquals(Set.of(), hidden, "API types a reader of dev.cairn cannot name");
  }

  @Test
  void theModulesResolveAndOpenADatabaseAsALayer(@TempDir Path dir) throws Exception {
    Configuration graph = Configuration.resolve(finder(), List.of(ModuleLayer.boot().configuration()),
        ModuleFinder.of(), Set.of("dev.cairn"));
    ModuleLayer layer = ModuleLayer.boot().defineModulesWithOneLoader(graph, ClassLoader.getSystemClassLoader());
    ClassLoader loader = layer.findLoader("dev.cairn");
    Class<?> cairn = loader.loadClass("dev.cairn.Cairn");
    Class<?> options = loader.loadClass("dev.cairn.Options");
    assertEquals("dev.cairn", cairn.getModule().getName(), "loaded from the layer, not the class path");

    Object db = cairn.getMethod("open", Path.class, options).invoke(null, dir, options.getMethod("defaults").invoke(null));
    Method put = cairn.getMethod("put", byte[].class, byte[].class);
    Method get = cairn.getMethod("get", byte[].class);
    byte[] key = "key".getBytes(StandardCharsets.UTF_8);
    byte[] value = "value".getBytes(StandardCharsets.UTF_8);
    try {
      put.invoke(db, key, value);
      assertArrayEquals(value, (byte[]) get.invoke(db, key));
    } finally {
      cairn.getMethod("close").invoke(db);
    }
  }

  /** Adds the packages {@code module} exports and those of the modules it requires transitively. */
  private static void addExportsOfReadable(ModuleDescriptor module, Set<String> out) throws URISyntaxException {
    module.exports().forEach(e -> out.add(e.source()));
    for (ModuleDescriptor.Requires r : module.requires()) {
      if (r.modifiers().contains(ModuleDescriptor.Requires.Modifier.TRANSITIVE)) {
        addExportsOfReadable(find(r.name()), out);
      }
    }
  }

  private static ModuleDescriptor find(String name) throws URISyntaxException {
    return finder().find(name).orElseThrow(() -> new AssertionError("no module " + name)).descriptor();
  }

  /** Cairn's five modules (classes directories or jars) and the libraries they require. */
  private static ModuleFinder finder() throws URISyntaxException {
    List<Path> locations = new java.util.ArrayList<>();
    for (Class<?> c : CAIRN_MODULES) {
      locations.add(location(c));
    }
    for (Class<?> c : LIBRARIES) {
      locations.add(location(c));
    }
    return ModuleFinder.of(locations.toArray(Path[]::new));
  }

  private static Path location(Class<?> c) throws URISyntaxException {
    return Path.of(c.getProtectionDomain().getCodeSource().getLocation().toURI());
  }
}
