package dev.cairn.cassandra.hot;

import dev.cairn.model.FileDescriptor;
import dev.cairn.model.LsmShape;
import java.util.Collection;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;

/**
 * How hot each file is: the reads per second that reached it over the host's last measurement
 * (Cassandra's per-SSTable read meters). A file read often has its blocks in the cache; rewriting
 * it drops them, and until the output warms every one of those reads goes to the device.
 *
 * <p>Hotness is relative to the tree: a file is hot when its reads per byte are at least {@code
 * hotFactor} times the tree's average reads per byte. Per byte, because a larger file takes more
 * reads for the same hotness of its keys; relative, because what matters is which data the cache
 * holds, not the absolute rate. A file with no measurement reads as cold (0).
 */
public final class ReadHeat {
  private static final ReadHeat NONE = new ReadHeat(Map.of());

  private final Map<Long, Double> readsPerSecond;

  private ReadHeat(Map<Long, Double> readsPerSecond) {
    this.readsPerSecond = readsPerSecond;
  }

  /** Nothing measured: every file cold. */
  public static ReadHeat none() {
    return NONE;
  }

  /** @param readsPerSecond file id to reads per second; every rate finite and >= 0 */
  public static ReadHeat of(Map<Long, Double> readsPerSecond) {
    Map<Long, Double> copy = new HashMap<>();
    readsPerSecond.forEach((id, rate) -> {
      Objects.requireNonNull(id, "file id");
      if (rate == null || !(rate >= 0) || Double.isInfinite(rate)) {
        throw new IllegalArgumentException("file " + id + ": read rate " + rate + " is not a finite rate >= 0");
      }
      copy.put(id, rate);
    });
    return new ReadHeat(Map.copyOf(copy));
  }

  /** The file's reads per second; 0 if unmeasured. */
  public double rate(long fileId) {
    return readsPerSecond.getOrDefault(fileId, 0.0);
  }

  /** The files' reads per second together. */
  public double rate(Collection<FileDescriptor> files) {
    double total = 0;
    for (FileDescriptor f : files) {
      total += rate(f.id());
    }
    return total;
  }

  /** The tree's reads per second per byte: all files' rates over all files' bytes (0 if empty). */
  public double density(LsmShape shape) {
    double reads = 0;
    long bytes = 0;
    for (int level = 0; level < shape.numLevels(); level++) {
      for (FileDescriptor f : shape.files(level)) {
        reads += rate(f.id());
        bytes += f.sizeBytes();
      }
    }
    return bytes == 0 ? 0 : reads / bytes;
  }

  /**
   * Whether {@code f} is hot against the tree's {@code density}: its reads per byte at least
   * {@code hotFactor} times the density, and not zero (an unread tree has no hot file).
   */
  public boolean isHot(FileDescriptor f, double density, double hotFactor) {
    double rate = rate(f.id());
    if (rate == 0) {
      return false;
    }
    // An empty file with reads is as hot as can be.
    return f.sizeBytes() == 0 || rate / f.sizeBytes() >= hotFactor * density;
  }
}
