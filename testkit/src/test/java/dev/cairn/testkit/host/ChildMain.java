package dev.cairn.testkit.host;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The child JVM {@link ChildJvmTest} launches: prints where it runs and two environment
 * variables, then does as its argument says: {@code ready} writes a file named {@code ready} in
 * its working directory and waits to be stopped, {@code exit-3} exits with status 3, {@code never}
 * waits to be stopped without ever being ready.
 */
public final class ChildMain {
  private ChildMain() {}

  public static void main(String[] args) throws Exception {
    System.out.println("cwd=" + Path.of("").toAbsolutePath());
    System.out.println("HOME=" + System.getenv("HOME"));
    System.out.println("CAIRN_CHILD_ADDED=" + System.getenv("CAIRN_CHILD_ADDED"));
    switch (args[0]) {
      case "ready" -> {
        Files.writeString(Path.of("ready"), "up");
        Thread.sleep(120_000);
      }
      case "exit-3" -> System.exit(3);
      case "never" -> Thread.sleep(120_000);
      default -> throw new IllegalArgumentException(args[0]);
    }
  }
}
