package dev.cairn.bench.engine.node;

import dev.cairn.bench.device.Cgroup;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A cgroup v1 memory group of its own for a child node (a Cassandra node, an HBase server), so
 * that the node's page cache is bounded and a block-cache (chunk-cache) miss costs device I/O
 * rather than an OS page-cache hit.
 *
 * <p>The group is a {@link Cgroup} under this process's own memory cgroup; the mount is {@code
 * /sys/fs/cgroup/memory} unless {@value #ROOT_PROPERTY} names another. The child joins the group
 * before it executes Java ({@link #wrap}), so every page it ever charges is charged here.
 */
public final class MemoryCgroup implements AutoCloseable {
  /** The memory cgroup mount; the name predates the HBase engines, which read it too. */
  public static final String ROOT_PROPERTY = "cairn.cassandra.cgroupRoot";

  private final Cgroup group;

  private MemoryCgroup(Cgroup group) {
    this.group = group;
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
    MemoryCgroup memory = new MemoryCgroup(Cgroup.create(mount, "memory", name));
    if (!Files.isWritable(memory.directory().resolve("memory.limit_in_bytes"))) {
      memory.close();
      throw new IOException("memory cgroup " + memory.directory() + " is not writable");
    }
    memory.disableOomKiller();
    return memory;
  }

  public Path directory() {
    return group.directory();
  }

  /** The command that joins this group and then executes {@code command} ({@link Cgroup#wrap}). */
  public List<String> wrap(List<String> command) {
    return group.wrap(command);
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
    for (String line : group.readLines("memory.stat")) {
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
      for (String line : group.readLines("memory.oom_control")) {
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
    return Long.parseLong(group.read(file).trim());
  }

  private void write(String file, String value) throws IOException {
    group.write(file, value);
  }

  /** Removes the group once its processes are gone ({@link Cgroup#close}). Idempotent. */
  @Override
  public void close() {
    group.close();
  }
}
