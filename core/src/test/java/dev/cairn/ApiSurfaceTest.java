package dev.cairn;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.lang.reflect.Executable;
import java.lang.reflect.Field;
import java.lang.reflect.GenericArrayType;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.RecordComponent;
import java.lang.reflect.Type;
import java.lang.reflect.WildcardType;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Holds Cairn's public API to a reviewed list (docs/api.md). The API is the package
 * {@code dev.cairn} and every Cairn type its public signatures reach, transitively (options
 * carry configuration records of the compaction module, stats carry the cache's counters); all
 * other packages are internal. A new public type in {@code dev.cairn}, or a public method that
 * exposes an internal type, changes the set and fails here until the list (and docs/api.md) is
 * updated on purpose.
 */
class ApiSurfaceTest {
  /** The reviewed API, as of docs/api.md. */
  private static final Set<String> REVIEWED = new TreeSet<>(Set.of(
      "dev.cairn.BackgroundErrorException",
      "dev.cairn.BackupInfo",
      "dev.cairn.Backups",
      "dev.cairn.Cairn",
      "dev.cairn.CairnException",
      "dev.cairn.CairnIOException",
      "dev.cairn.CairnIterator",
      "dev.cairn.CompactionFilter",
      "dev.cairn.CompactionFilter$Context",
      "dev.cairn.CompactionFilter$Decision",
      "dev.cairn.CorruptionException",
      "dev.cairn.CounterOperator",
      "dev.cairn.DatabaseChangedException",
      "dev.cairn.DatabaseClosedException",
      "dev.cairn.Entry",
      "dev.cairn.MergeOperator",
      "dev.cairn.MissingFilesException",
      "dev.cairn.Options",
      "dev.cairn.Options$Builder",
      "dev.cairn.Options$FlushCaching",
      "dev.cairn.Options$WalRecoveryMode",
      "dev.cairn.ReadOnlyException",
      "dev.cairn.ReadOptions",
      "dev.cairn.RepairReport",
      "dev.cairn.RepairReport$DroppedTable",
      "dev.cairn.SharedResources",
      "dev.cairn.SharedResources$Builder",
      "dev.cairn.Snapshot",
      "dev.cairn.Stats",
      "dev.cairn.Stats$Block",
      "dev.cairn.Stats$Buffer",
      "dev.cairn.Stats$BufferLevelReads",
      "dev.cairn.Stats$Choices",
      "dev.cairn.Stats$Compaction",
      "dev.cairn.Stats$Dlc",
      "dev.cairn.Stats$Flush",
      "dev.cairn.Stats$FlushCaching",
      "dev.cairn.Stats$Latencies",
      "dev.cairn.Stats$Latency",
      "dev.cairn.Stats$LevelReads",
      "dev.cairn.Stats$LevelStats",
      "dev.cairn.Stats$Manifest",
      "dev.cairn.Stats$Memtable",
      "dev.cairn.Stats$Reads",
      "dev.cairn.Stats$Space",
      "dev.cairn.Stats$Stalls",
      "dev.cairn.Stats$TableFiles",
      "dev.cairn.Stats$Writes",
      "dev.cairn.StatsAttributes",
      "dev.cairn.StatsMBean",
      "dev.cairn.StatsMBean$Registration",
      "dev.cairn.VerifyProgress",
      "dev.cairn.WriteBatch",
      "dev.cairn.WriteOptions",
      "dev.cairn.cache.CacheStats",
      "dev.cairn.cache.EvictionPolicy",
      "dev.cairn.compaction.block.BlockCompactionConfig",
      "dev.cairn.compaction.block.BlockCompactionConfig$LastLevel",
      "dev.cairn.compaction.block.LevelThresholds",
      "dev.cairn.compaction.buffer.BufferConfig",
      "dev.cairn.compaction.dlc.DlcConfig",
      "dev.cairn.compaction.dlc.DlcConfig$Builder",
      "dev.cairn.compaction.dlc.DlcConfig$DelayPolicy",
      "dev.cairn.compaction.dlc.DlcConfig$Estimator",
      "dev.cairn.compaction.dlc.LoadClass",
      "dev.cairn.compaction.leveled.CompactionPriority",
      "dev.cairn.config.BlockCompactionExecution",
      "dev.cairn.config.CompactionSettings",
      "dev.cairn.config.CompactionSettings$Block",
      "dev.cairn.config.CompactionSettings$Buffer",
      "dev.cairn.config.CompactionSettings$Dlc",
      "dev.cairn.config.CompactionSettings$Execution",
      "dev.cairn.config.CompactionSettings$Immediate",
      "dev.cairn.config.CompactionSettings$Leveled",
      "dev.cairn.config.CompactionSettings$LeveledExecution",
      "dev.cairn.config.CompactionSettings$PlainMerge",
      "dev.cairn.config.CompactionSettings$Scheduler",
      "dev.cairn.config.CompactionSettings$Table",
      "dev.cairn.config.CompactionSettings$TwoPhase",
      "dev.cairn.config.CompactionSettings$TwoPhaseExecution",
      "dev.cairn.config.Compression",
      "dev.cairn.config.Compression$Codec",
      "dev.cairn.fs.FileSystem",
      "dev.cairn.fs.IoPurpose",
      "dev.cairn.fs.IoStats",
      "dev.cairn.fs.IoTag",
      "dev.cairn.fs.ReadableFile",
      "dev.cairn.fs.WritableFile"));

  @Test
  void theApiIsTheReviewedList() throws Exception {
    assertEquals(REVIEWED, reachableApiTypes(), "the public API changed: review it, then update "
        + "ApiSurfaceTest.REVIEWED and docs/api.md");
  }

  /** Public types of {@code dev.cairn} and every Cairn type their public signatures reach. */
  static Set<String> reachableApiTypes() throws IOException, URISyntaxException, ClassNotFoundException {
    Set<String> seen = new TreeSet<>();
    Deque<Class<?>> pending = new ArrayDeque<>(topLevelPublicTypes());
    while (!pending.isEmpty()) {
      Class<?> c = pending.pop();
      if (!c.getName().startsWith("dev.cairn.") || !seen.add(c.getName())) {
        continue;
      }
      for (Class<?> inner : c.getDeclaredClasses()) {
        if (Modifier.isPublic(inner.getModifiers())) {
          pending.push(inner);
        }
      }
      for (Type t : signatureTypes(c)) {
        collect(t, pending);
      }
    }
    return seen;
  }

  private static Stream<Type> superTypes(Class<?> c) {
    Stream<Type> interfaces = Stream.of(c.getGenericInterfaces());
    return c.getGenericSuperclass() == null ? interfaces : Stream.concat(Stream.of(c.getGenericSuperclass()), interfaces);
  }

  private static Iterable<Type> signatureTypes(Class<?> c) {
    Stream.Builder<Type> out = Stream.builder();
    superTypes(c).forEach(out::add);
    for (Method m : c.getDeclaredMethods()) {
      if (visible(m.getModifiers()) && !m.isSynthetic()) {
        addExecutable(m, out);
        out.add(m.getGenericReturnType());
      }
    }
    for (var k : c.getDeclaredConstructors()) {
      if (visible(k.getModifiers())) {
        addExecutable(k, out);
      }
    }
    for (Field f : c.getDeclaredFields()) {
      if (visible(f.getModifiers()) && !f.isSynthetic()) {
        out.add(f.getGenericType());
      }
    }
    if (c.isRecord()) {
      for (RecordComponent rc : c.getRecordComponents()) {
        out.add(rc.getGenericType());
      }
    }
    return out.build()::iterator;
  }

  private static void addExecutable(Executable e, Stream.Builder<Type> out) {
    for (Type p : e.getGenericParameterTypes()) {
      out.add(p);
    }
    for (Type x : e.getGenericExceptionTypes()) {
      out.add(x);
    }
  }

  private static boolean visible(int modifiers) {
    return Modifier.isPublic(modifiers) || Modifier.isProtected(modifiers);
  }

  private static void collect(Type t, Deque<Class<?>> pending) {
    if (t instanceof Class<?> c) {
      while (c.isArray()) {
        c = c.getComponentType();
      }
      pending.push(c);
    } else if (t instanceof ParameterizedType p) {
      collect(p.getRawType(), pending);
      for (Type a : p.getActualTypeArguments()) {
        collect(a, pending);
      }
    } else if (t instanceof GenericArrayType g) {
      collect(g.getGenericComponentType(), pending);
    } else if (t instanceof WildcardType w) {
      for (Type b : w.getUpperBounds()) {
        collect(b, pending);
      }
      for (Type b : w.getLowerBounds()) {
        collect(b, pending);
      }
    }
  }

  /** The public top-level classes compiled into {@code dev/cairn} of core's main classes. */
  private static Set<Class<?>> topLevelPublicTypes() throws IOException, URISyntaxException, ClassNotFoundException {
    Path classes = Path.of(Cairn.class.getProtectionDomain().getCodeSource().getLocation().toURI()).resolve("dev/cairn");
    Set<Class<?>> out = new java.util.HashSet<>();
    try (Stream<Path> s = Files.list(classes)) {
      for (Path p : s.toList()) {
        String name = p.getFileName().toString();
        if (name.endsWith(".class") && !name.contains("$")) {
          Class<?> c = Class.forName("dev.cairn." + name.substring(0, name.length() - ".class".length()));
          if (Modifier.isPublic(c.getModifiers())) {
            out.add(c);
          }
        }
      }
    }
    return out;
  }
}
