package dev.cairn.bench.device;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * A slow device every engine sees alike: a block-I/O control group that caps the reads its
 * processes issue to one disk at N per second ({@code --device-read-iops}). A child joins the group
 * before it executes ({@link #wrap}), so the engine, its threads, and any process it starts (a
 * Cassandra or HBase node) share the one cap, however they read: direct reads and page-cache
 * misses are both reads the process issues. What it does not cap: buffered writes, which the
 * kernel's flusher writes back outside the group under cgroup v1 (a v1 cap models a device slow to
 * read, not to write), and reads the page cache serves, which is why a run drops it before
 * measuring ({@link PageCache}) and every engine that can reads its tables directly.
 *
 * <p>Under cgroup v1 the limit is {@code blkio.throttle.read_iops_device} ("MAJ:MIN N") and the
 * reads served are {@code blkio.throttle.io_serviced}'s Read line; under cgroup v2 they are
 * {@code io.max} ("MAJ:MIN riops=N") and {@code io.stat}'s {@code rios}. The v1 form is the one
 * checked on this project's machines; v2 is taken where v1 has no {@code blkio} mount.
 */
public final class ReadIopsCap implements AutoCloseable {
  static final Path V1_MOUNT = Path.of("/sys/fs/cgroup/blkio");
  private static final List<Path> V2_MOUNTS = List.of(Path.of("/sys/fs/cgroup/unified"), Path.of("/sys/fs/cgroup"));

  /** The two interfaces of the kernel's block-I/O controller: where the cap is set and read. */
  enum Version {
    V1("blkio", "blkio.throttle.read_iops_device", "blkio.throttle.io_serviced"),
    V2("", "io.max", "io.stat");

    /** The controller's name in {@code /proc/self/cgroup} ("" for the v2 hierarchy's line). */
    final String controller;
    final String limitFile;
    final String statFile;

    Version(String controller, String limitFile, String statFile) {
      this.controller = controller;
      this.limitFile = limitFile;
      this.statFile = statFile;
    }

    Path mount() throws IOException {
      return this == V1 ? V1_MOUNT : v2Mount();
    }

    String limit(BlockDevice device, int readsPerSecond) {
      return device.id() + (this == V1 ? " " : " riops=") + readsPerSecond;
    }

    /**
     * The reads served in one line of the stat file split at blanks, or -1 if the line has none:
     * v1 "MAJ:MIN Read N", v2 "MAJ:MIN rbytes=.. wbytes=.. rios=N ...".
     */
    long reads(String[] f, BlockDevice device) {
      if (f.length < 2 || !f[0].equals(device.id())) {
        return -1;
      }
      if (this == V1) {
        return f.length == 3 && f[1].equals("Read") ? Long.parseLong(f[2]) : -1;
      }
      for (String field : f) {
        if (field.startsWith("rios=")) {
          return Long.parseLong(field.substring("rios=".length()));
        }
      }
      return -1;
    }
  }

  private final Cgroup group;
  private final Version version;
  private final BlockDevice device;
  private final int readsPerSecond;

  private ReadIopsCap(Cgroup group, Version version, BlockDevice device, int readsPerSecond) {
    this.group = group;
    this.version = version;
    this.device = device;
    this.readsPerSecond = readsPerSecond;
  }

  /**
   * A new group capping reads from the disk that holds {@code dataDir} at {@code readsPerSecond}.
   *
   * @throws IOException naming what is missing when the machine has no usable block-I/O
   *     controller, the directory is on no block device, or the group cannot be made
   */
  public static ReadIopsCap create(Path dataDir, int readsPerSecond, String name) throws IOException {
    if (readsPerSecond <= 0) {
      throw new IllegalArgumentException("reads per second must be positive, got " + readsPerSecond);
    }
    Files.createDirectories(dataDir);
    BlockDevice device = BlockDevice.holding(dataDir);
    Version version = availableVersion();
    Cgroup group = Cgroup.create(version.mount(), version.controller, name);
    ReadIopsCap cap = new ReadIopsCap(group, version, device, readsPerSecond);
    try {
      group.write(version.limitFile, version.limit(device, readsPerSecond));
    } catch (IOException e) {
      cap.close();
      throw new IOException("cannot cap reads of device " + device.id() + " in " + group.directory() + ": " + e, e);
    }
    return cap;
  }

  /**
   * Which controller interface this machine offers.
   *
   * @throws IOException saying what was looked for when it offers neither
   */
  static Version availableVersion() throws IOException {
    if (Files.isRegularFile(V1_MOUNT.resolve(Version.V1.limitFile))) {
      return Version.V1;
    }
    for (Path mount : V2_MOUNTS) {
      Path controllers = mount.resolve("cgroup.controllers");
      if (Files.isRegularFile(controllers)
          && List.of(Files.readString(controllers, StandardCharsets.US_ASCII).trim().split("\\s+")).contains("io")) {
        return Version.V2;
      }
    }
    throw new IOException("--device-read-iops needs the kernel's block-I/O controller: there is no cgroup v1 "
        + V1_MOUNT.resolve(Version.V1.limitFile) + " and no cgroup v2 mount at " + V2_MOUNTS
        + " whose cgroup.controllers lists io");
  }

  private static Path v2Mount() throws IOException {
    for (Path mount : V2_MOUNTS) {
      if (Files.isRegularFile(mount.resolve("cgroup.controllers"))) {
        return mount;
      }
    }
    throw new IOException("no cgroup v2 mount at " + V2_MOUNTS);
  }

  /** The command that joins this group and then executes {@code command}. */
  public List<String> wrap(List<String> command) {
    return group.wrap(command);
  }

  /** Reads the device has served this group's processes since the group was made. */
  public long readsServed() throws IOException {
    return readsServed(group.directory(), version, device);
  }

  /**
   * Reads the device has served the group at {@code dir} ({@link #readsServed()} of a group this
   * process did not make: a child reading its own group).
   */
  static long readsServed(Path dir, Version version, BlockDevice device) throws IOException {
    for (String line : Files.readAllLines(dir.resolve(version.statFile), StandardCharsets.US_ASCII)) {
      long reads = version.reads(line.trim().split("\\s+"), device);
      if (reads >= 0) {
        return reads;
      }
    }
    return 0; // the device has served this group nothing yet
  }

  /**
   * The reads the device has served the capped group this process runs in (a forked run reading
   * its own group), from now on: {@code served()} counts from this call.
   *
   * @throws IOException when this process is in no block-I/O group of its own
   */
  public static OwnGroupReads ofThisProcess(Path dataDir) throws IOException {
    Version version = availableVersion();
    Path mount = version.mount();
    Path own = Cgroup.ownGroup(mount, version.controller);
    if (own.equals(mount)) {
      throw new IOException("this process runs in no block-I/O group of its own under " + mount
          + ": a capped run is started by the runner inside one");
    }
    return new OwnGroupReads(own, version, BlockDevice.holding(dataDir));
  }

  /** Reads served to one group since a starting point. */
  public static final class OwnGroupReads {
    private final Path dir;
    private final Version version;
    private final BlockDevice device;
    private final long start;

    private OwnGroupReads(Path dir, Version version, BlockDevice device) throws IOException {
      this.dir = dir;
      this.version = version;
      this.device = device;
      this.start = readsServed(dir, version, device);
    }

    public long served() throws IOException {
      return readsServed(dir, version, device) - start;
    }
  }

  public BlockDevice device() {
    return device;
  }

  public int readsPerSecond() {
    return readsPerSecond;
  }

  public Path directory() {
    return group.directory();
  }

  @Override
  public void close() {
    group.close();
  }
}
