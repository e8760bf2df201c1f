package dev.cairn.bench.device;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A whole block device by its numbers, as cgroup files name it ({@code MAJ:MIN}). A throttle set
 * on a partition is refused by the kernel, so a path on a partition resolves to its disk.
 */
public record BlockDevice(int major, int minor) {
  private static final Path SYS_DEV_BLOCK = Path.of("/sys/dev/block");

  /** The disk that holds {@code path} (an existing file or directory). */
  public static BlockDevice holding(Path path) throws IOException {
    Object dev = Files.getAttribute(path, "unix:dev");
    BlockDevice device = fromDevT(((Number) dev).longValue());
    Path sys = SYS_DEV_BLOCK.resolve(device.id());
    if (!Files.exists(sys)) {
      throw new IOException(path + " is on device " + device.id() + ", which is not a block device (tmpfs,"
          + " overlay or a network file system?): no block-I/O cap can apply to it");
    }
    if (Files.exists(sys.resolve("partition"))) {
      // /sys/dev/block/M:m -> .../block/vda/vda1: the disk's own directory is the parent.
      String disk = Files.readString(sys.toRealPath().getParent().resolve("dev"), StandardCharsets.US_ASCII).trim();
      return parse(disk);
    }
    return device;
  }

  /** Decodes a Linux {@code dev_t} (glibc's layout: 12 bits of major and 20 of minor, split). */
  static BlockDevice fromDevT(long dev) {
    int major = (int) (((dev >>> 8) & 0xfff) | ((dev >>> 32) & ~0xfffL));
    int minor = (int) ((dev & 0xff) | ((dev >>> 12) & ~0xffL));
    return new BlockDevice(major, minor);
  }

  static BlockDevice parse(String id) {
    String[] parts = id.split(":");
    if (parts.length != 2) {
      throw new IllegalArgumentException("not a MAJ:MIN device id: '" + id + "'");
    }
    return new BlockDevice(Integer.parseInt(parts[0]), Integer.parseInt(parts[1]));
  }

  /** {@code MAJ:MIN}. */
  public String id() {
    return major + ":" + minor;
  }
}
