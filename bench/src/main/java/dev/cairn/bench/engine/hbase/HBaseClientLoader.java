package dev.cairn.bench.engine.hbase;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.MalformedURLException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The class loader HBase's client runs in inside the runner: hbase-lib's jars (HBase, Hadoop and
 * the versions of Guava, Netty and Caffeine they were built with) over the platform loader, so
 * that none of the runner's own libraries (the root pom's newer Guava, Netty and Caffeine) is
 * visible to HBase, nor HBase's to the runner. Two kinds of classes come from the runner instead:
 * <ul>
 *   <li>the bridge, {@link HBaseClient} and its nested types, delegated to the runner's loader, so
 *       both sides see the same interface;
 *   <li>its implementation, the package {@value #IMPL_PACKAGE}, defined here from the runner's
 *       class files (child-first), so that its references to HBase resolve in hbase-lib. The
 *       runner's loader never links those classes: it has no HBase to link them against.
 * </ul>
 * Everything else of the runner's ({@code dev.cairn.*} included) is invisible here.
 */
public final class HBaseClientLoader extends URLClassLoader {
  static final String IMPL_PACKAGE = "dev.cairn.bench.engine.hbase.client.";
  static final String IMPL_CLASS = IMPL_PACKAGE + "HBaseClientImpl";

  private final ClassLoader runner;

  /**
   * @param classPath the client's class path: directories (the client's log4j configuration) and
   *     hbase-lib's jars, searched in this order
   * @param runner the loader that holds {@link HBaseClient} and the implementation's class files
   */
  public HBaseClientLoader(List<Path> classPath, ClassLoader runner) {
    super("hbase-client", urls(classPath), ClassLoader.getPlatformClassLoader());
    this.runner = runner;
  }

  /**
   * A new, unconnected client, loaded by a new loader over {@code classPath}. The loader is never
   * closed: HBase's client leaves threads (netty's event loops, ZooKeeper's) winding down after
   * {@link HBaseClient#close} and registers a JVM shutdown hook through Hadoop, all of which still
   * load classes from it; its jars stay open until the runner exits.
   */
  public static HBaseClient newClient(List<Path> classPath) {
    HBaseClientLoader loader = new HBaseClientLoader(classPath, HBaseClient.class.getClassLoader());
    try {
      return (HBaseClient) loader.loadClass(IMPL_CLASS).getDeclaredConstructor().newInstance();
    } catch (ReflectiveOperationException | LinkageError e) {
      throw new IllegalStateException("cannot load HBase's client from " + classPath + ": " + e, e);
    }
  }

  static boolean isShared(String name) {
    String bridge = HBaseClient.class.getName();
    return name.equals(bridge) || name.startsWith(bridge + "$");
  }

  @Override
  protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
    synchronized (getClassLoadingLock(name)) {
      Class<?> c = findLoadedClass(name);
      if (c == null) {
        if (isShared(name)) {
          c = runner.loadClass(name);
        } else if (name.startsWith(IMPL_PACKAGE)) {
          c = defineFromRunner(name);
        } else {
          c = super.loadClass(name, false); // the platform's, then hbase-lib's
        }
      }
      if (resolve) {
        resolveClass(c);
      }
      return c;
    }
  }

  private Class<?> defineFromRunner(String name) throws ClassNotFoundException {
    String resource = name.replace('.', '/') + ".class";
    try (InputStream in = runner.getResourceAsStream(resource)) {
      if (in == null) {
        throw new ClassNotFoundException(name + ": no " + resource + " in the runner's class path");
      }
      byte[] bytes = in.readAllBytes();
      return defineClass(name, bytes, 0, bytes.length);
    } catch (IOException e) {
      throw new ClassNotFoundException(name, e);
    }
  }

  private static URL[] urls(List<Path> classPath) {
    List<URL> urls = new ArrayList<>();
    for (Path p : classPath) {
      try {
        urls.add(p.toUri().toURL());
      } catch (MalformedURLException e) {
        throw new UncheckedIOException(e);
      }
    }
    return urls.toArray(URL[]::new);
  }
}
