package dev.cairn.testkit.host;

import java.io.File;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * A Java command line in its parts: the java launcher, the JVM's flags, the class path, the main
 * class and the program's arguments. What a {@link ChildJvm} runs; pure, it starts nothing.
 *
 * @param java the java launcher, normally {@link #currentJava()}
 * @param jvmArgs the JVM's flags, before the class path (heap, {@code -D}, {@code --add-opens})
 * @param classPath the class path as the launcher takes it: entries joined by the path separator,
 *     wildcards such as {@code lib/*} left for the launcher to expand
 * @param mainClass the class whose {@code main} the child runs
 * @param args the program's arguments, after the main class
 */
public record JavaCommand(Path java, List<String> jvmArgs, String classPath, String mainClass, List<String> args) {

  public JavaCommand {
    Objects.requireNonNull(java, "java");
    Objects.requireNonNull(classPath, "classPath");
    Objects.requireNonNull(mainClass, "mainClass");
    jvmArgs = List.copyOf(jvmArgs);
    args = List.copyOf(args);
  }

  /** The java launcher of the JVM running this code ({@code java.home}), which a child normally shares. */
  public static Path currentJava() {
    return Path.of(System.getProperty("java.home"), "bin", "java");
  }

  /** Class path entries joined by the platform's path separator, each as given. */
  public static String classPath(List<Path> entries) {
    List<String> parts = new ArrayList<>(entries.size());
    for (Path p : entries) {
      parts.add(p.toString());
    }
    return String.join(File.pathSeparator, parts);
  }

  /** The command line: java, the JVM's flags, {@code -cp} and the class path, the main class, its arguments. */
  public List<String> toList() {
    List<String> cmd = new ArrayList<>();
    cmd.add(java.toString());
    cmd.addAll(jvmArgs);
    cmd.add("-cp");
    cmd.add(classPath);
    cmd.add(mainClass);
    cmd.addAll(args);
    return cmd;
  }
}
