package dev.cairn.bench.device;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A control group the runner made for a child process: made under this process's own group of
 * the same controller (so the child stays inside whatever limits the runner runs under), joined
 * by the child before it executes its program ({@link #wrap}), removed once it has no process left.
 * A child's own children (a Cassandra node's tools, say) are born in it and stay in it.
 */
public final class Cgroup implements AutoCloseable {
  private static final AtomicInteger SEQUENCE = new AtomicInteger();

  private final Path dir;

  private Cgroup(Path dir) {
    this.dir = dir;
  }

  /**
   * Makes a new group named after {@code name}, this process and a sequence number, under this
   * process's own group in the hierarchy mounted at {@code mount}.
   *
   * @param controller the v1 controller whose line of {@code /proc/self/cgroup} names our group
   *     ({@code "memory"}, {@code "blkio"}), or {@code ""} for the v2 hierarchy's {@code 0::} line
   */
  public static Cgroup create(Path mount, String controller, String name) throws IOException {
    Path parent = ownGroup(mount, controller);
    Path dir = parent.resolve(name + "-" + ProcessHandle.current().pid() + "-" + SEQUENCE.incrementAndGet());
    try {
      Files.createDirectory(dir);
    } catch (IOException e) {
      throw new IOException("cannot create cgroup " + dir + ": " + e, e);
    }
    Cgroup group = new Cgroup(dir);
    if (!Files.isWritable(dir.resolve("cgroup.procs"))) {
      group.close();
      throw new IOException("cgroup " + dir + " is not writable");
    }
    return group;
  }

  /** This process's group of {@code controller} under {@code mount}, or the mount itself. */
  static Path ownGroup(Path mount, String controller) {
    try {
      for (String line : Files.readAllLines(Path.of("/proc/self/cgroup"), StandardCharsets.UTF_8)) {
        String[] f = line.split(":", 3);
        boolean ours = controller.isEmpty() ? f.length == 3 && f[0].equals("0") && f[1].isEmpty()
            : f.length == 3 && List.of(f[1].split(",")).contains(controller);
        if (ours) {
          Path own = mount.resolve(f[2].replaceFirst("^/+", ""));
          if (Files.isDirectory(own) && Files.isWritable(own)) {
            return own;
          }
        }
      }
    } catch (IOException | RuntimeException e) {
      // fall back to the mount's root
    }
    return mount;
  }

  public Path directory() {
    return dir;
  }

  /**
   * The command that puts itself into this group and then executes {@code command}: a shell
   * writes its pid to {@code cgroup.procs} and {@code exec}s the command, which keeps the pid.
   */
  public List<String> wrap(List<String> command) {
    List<String> wrapped = new ArrayList<>();
    wrapped.add("/bin/sh");
    wrapped.add("-c");
    wrapped.add("echo $$ > '" + dir.resolve("cgroup.procs") + "' && exec \"$0\" \"$@\"");
    wrapped.addAll(command);
    return wrapped;
  }

  public String read(String file) throws IOException {
    return Files.readString(dir.resolve(file), StandardCharsets.US_ASCII);
  }

  public List<String> readLines(String file) throws IOException {
    return Files.readAllLines(dir.resolve(file), StandardCharsets.US_ASCII);
  }

  public void write(String file, String value) throws IOException {
    Files.writeString(dir.resolve(file), value, StandardCharsets.US_ASCII);
  }

  /** Removes the group; waits up to 10 s for its processes to be gone. Idempotent. */
  @Override
  public void close() {
    long deadline = System.nanoTime() + 10_000_000_000L;
    while (Files.isDirectory(dir)) {
      try {
        Files.delete(dir); // rmdir: the kernel refuses while a process is in the group
        return;
      } catch (IOException e) {
        if (System.nanoTime() > deadline) {
          System.err.println("could not remove cgroup " + dir + ": " + e);
          return;
        }
        try {
          Thread.sleep(100);
        } catch (InterruptedException ie) {
          Thread.currentThread().interrupt();
          return;
        }
      }
    }
  }
}
