package dev.cairn.bench.engine.node;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A cgroup v1 memory group of its own for a child node (a Cassandra node, an HBase server), so
 * that the node's page cache is bounded and a block-cache (chunk-cache) miss costs device I/O
 * rather than an OS page-cache hit.
 *
 * <p>The group is made under this process's own memory cgroup (from {@code /proc/self/cgroup}),
 * so the node stays inside whatever limits and accounting the runner runs under; if that directory
 * is not under the mount, under the mount's root. The mount is {@code /sys/fs/cgroup/memory}
 * unless {@value #ROOT_PROPERTY} names another. The child joins the group before it executes Java
 * ({@link #wrap}), so every page it ever charges is charged here. {@link #close} removes the group
 * once it has no process left.
 */
public final class MemoryCgroup implements AutoCloseable {
  /** The memory cgroup mount; the name predates the HBase engines, which read it too. */
  public static final String ROOT_PROPERTY = "cairn.cassandra.cgroupRoot";
  private static final AtomicInteger SEQUENCE = new AtomicInteger();

  private final Path dir;

  private MemoryCgroup(Path dir) {
    this.dir = dir;
  }

  /**
   * Makes a new group, or explains why not (no v1 memory controller, not writable).
   *
   * @throws IOException with the reason when no group can be made
   */
  public static MemoryCgroup create(String name) throws IOException {
    Path mount = Path.of(System.getProperty(ROOT_PROPERTY, "/sys/fs/cgroup/memory"));
    if (!Files.isRegularFile(mount.resolve("memory.limit_in_bytes"))) {
      throw new IOException("no cgroup v1 memory controller at " + mount);
    }
    Path parent = ownGroup(mount);
    Path dir = parent.resolve(name + "-" + ProcessHandle.current().pid() + "-" + SEQUENCE.incrementAndGet());
    try {
      Files.createDirectory(dir);
    } catch (IOException e) {
      throw new IOException("cannot create memory cgroup " + dir + ": " + e, e);
    }
    MemoryCgroup group = new MemoryCgroup(dir);
    if (!Files.isWritable(dir.resolve("memory.limit_in_bytes")) || !Files.isWritable(dir.resolve("cgroup.procs"))) {
      group.close();
      throw new IOException("memory cgroup " + dir + " is not writable");
    }
    group.disableOomKiller();
    return group;
  }

  /** This process's memory cgroup under {@code mount}, or the mount itself. */
  private static Path ownGroup(Path mount) {
    try {
      for (String line : Files.readAllLines(Path.of("/proc/self/cgroup"), StandardCharsets.UTF_8)) {
        String[] f = line.split(":", 3);
        if (f.length == 3 && List.of(f[1].split(",")).contains("memory")) {
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
    List<String> wrapped = new java.util.ArrayList<>();
    wrapped.add("/bin/sh");
    wrapped.add("-c");
    wrapped.add("echo $$ > '" + dir.resolve("cgroup.procs") + "' && exec \"$0\" \"$@\"");
    wrapped.addAll(command);
    return wrapped;
  }

  /**
   * Turns the group's OOM killer off ({@code memory.oom_control} = 1): a node that reaches the
   * limit before the monitor raises it (its memory grows within the monitor's second, and dirty
   * page cache cannot be dropped at once) waits for the next raise instead of being killed (it was
   * killed, exit 137, early in one load phase). Best effort: without it the group still works.
   */
  private void disableOomKiller() {
    try {
      write("memory.oom_control", "1");
    } catch (IOException e) {
      // the limit still bounds the page cache; only the rare kill stays possible
    }
  }

  /** Sets {@code memory.limit_in_bytes}; the kernel reclaims page cache to meet a lower one. */
  public void setLimit(long bytes) throws IOException {
    write("memory.limit_in_bytes", Long.toString(bytes));
  }

  public long limit() throws IOException {
    return readLong("memory.limit_in_bytes");
  }

  public long maxUsage() throws IOException {
    return readLong("memory.max_usage_in_bytes");
  }

  /** {@code memory.stat}: {@code cache} (page cache, mapped files included), {@code rss} (anonymous) ... */
  public Map<String, Long> stat() throws IOException {
    Map<String, Long> m = new HashMap<>();
    for (String line : Files.readAllLines(dir.resolve("memory.stat"), StandardCharsets.UTF_8)) {
      String[] f = line.trim().split("\\s+");
      if (f.length == 2) {
        try {
          m.put(f[0], Long.parseLong(f[1]));
        } catch (NumberFormatException e) {
          // not a counter
        }
      }
    }
    return m;
  }

  /** Processes the OOM killer ended in this group ({@code memory.oom_control}'s {@code oom_kill}), or -1. */
  public long oomKills() {
    return oomControl("oom_kill ");
  }

  /** Whether the group's tasks now wait at the limit ({@code under_oom 1}, with the killer off). */
  public boolean underOom() {
    return oomControl("under_oom ") == 1;
  }

  /** Current bytes charged to the group ({@code memory.usage_in_bytes}). */
  public long usage() throws IOException {
    return readLong("memory.usage_in_bytes");
  }

  private long oomControl(String field) {
    try {
      for (String line : Files.readAllLines(dir.resolve("memory.oom_control"), StandardCharsets.UTF_8)) {
        if (line.startsWith(field)) {
          return Long.parseLong(line.substring(field.length()).trim());
        }
      }
    } catch (IOException | RuntimeException e) {
      // not reported by this kernel
    }
    return -1;
  }

  private long readLong(String file) throws IOException {
    return Long.parseLong(Files.readString(dir.resolve(file), StandardCharsets.US_ASCII).trim());
  }

  private void write(String file, String value) throws IOException {
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
          System.err.println("could not remove memory cgroup " + dir + ": " + e);
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
