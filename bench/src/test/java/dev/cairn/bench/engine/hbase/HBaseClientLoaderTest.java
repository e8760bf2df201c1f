package dev.cairn.bench.engine.hbase;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The isolated class loader over hbase-adapter's real hbase-lib. Skipped, with the command that
 * builds it, when hbase-lib has not been built (it is not part of jmh's own build).
 */
class HBaseClientLoaderTest {
  private static HBaseInstall install;

  @BeforeAll
  static void locateHBaseLib() {
    try {
      install = HBaseInstall.locate();
    } catch (IllegalStateException e) {
      Assumptions.abort("hbase-lib not built, so the class-loader test is skipped: " + e.getMessage());
    }
  }

  private static HBaseClientLoader loader() {
    return new HBaseClientLoader(install.libJars(), HBaseClient.class.getClassLoader());
  }

  @Test
  void hbaseClassesComeFromHBaseLibNotFromTheRunner() throws Exception {
    try (HBaseClientLoader loader = loader()) {
      Class<?> bytes = loader.loadClass("org.apache.hadoop.hbase.util.Bytes");
      assertSame(loader, bytes.getClassLoader());
      Path jar = Path.of(bytes.getProtectionDomain().getCodeSource().getLocation().toURI());
      assertEquals(install.libDir(), jar.getParent());
      assertTrue(jar.getFileName().toString().startsWith("hbase-common-2.6.1"), jar.toString());
      // jmh's test class path has hbase-client (provided): its Bytes is another class.
      Class<?> runners = Class.forName("org.apache.hadoop.hbase.util.Bytes", false, HBaseClient.class.getClassLoader());
      assertNotSame(runners, bytes);
    }
  }

  @Test
  void hbasesGuavaIsItsOwnNotTheRunners() throws Exception {
    try (HBaseClientLoader loader = loader()) {
      Class<?> guava = loader.loadClass("com.google.common.base.Preconditions");
      String jar = Path.of(guava.getProtectionDomain().getCodeSource().getLocation().toURI()).getFileName().toString();
      assertEquals("guava-27.0-jre.jar", jar, "hbase-lib's Guava, not the root pom's 33");
    }
  }

  @Test
  void theBridgeIsSharedAndItsImplementationDefinedInTheIsolatedLoader() throws Exception {
    try (HBaseClientLoader loader = loader()) {
      Class<?> impl = loader.loadClass(HBaseClientLoader.IMPL_CLASS);
      assertSame(loader, impl.getClassLoader(), "defined child-first from the runner's class files");
      assertSame(HBaseClient.class, loader.loadClass(HBaseClient.class.getName()));
      assertSame(HBaseClient.TableSpec.class, loader.loadClass(HBaseClient.TableSpec.class.getName()));
      Object client = impl.getDeclaredConstructor().newInstance();
      assertTrue(client instanceof HBaseClient);
      // HBase's Connection, as the implementation sees it, is hbase-lib's.
      Class<?> connection = impl.getDeclaredField("connection").getType();
      assertSame(loader, connection.getClassLoader());
    }
  }

  @Test
  void theRunnersOwnClassesAreInvisible() throws Exception {
    try (HBaseClientLoader loader = loader()) {
      assertThrows(ClassNotFoundException.class, () -> loader.loadClass(HBaseEngine.class.getName()));
      assertThrows(ClassNotFoundException.class, () -> loader.loadClass("dev.cairn.Options"));
    }
  }
}
