package dev.cairn.bench.engine.node;

import dev.cairn.bench.engine.EngineMetrics;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * What a child node's process has caused storage to do, from Linux's {@code /proc/PID/io}: the
 * device figures of an engine whose server is another process (the runner's own {@code
 * /proc/self/io} does not see them).
 *
 * @param bytesRead {@code read_bytes}: bytes fetched from the device (page-cache hits are not in it)
 * @param bytesWritten {@code write_bytes - cancelled_write_bytes}: bytes sent to the device
 */
public record ChildProcessIo(long bytesRead, long bytesWritten) {

  /** The figures of process {@code pid}, or both {@link EngineMetrics#UNAVAILABLE} if unreadable. */
  public static ChildProcessIo of(long pid) {
    try {
      return parse(Files.readAllLines(Path.of("/proc", Long.toString(pid), "io")));
    } catch (IOException | RuntimeException e) {
      return new ChildProcessIo(EngineMetrics.UNAVAILABLE, EngineMetrics.UNAVAILABLE);
    }
  }

  /** The lines of a {@code /proc/PID/io} file; a missing field is {@link EngineMetrics#UNAVAILABLE}. */
  static ChildProcessIo parse(List<String> lines) {
    long read = EngineMetrics.UNAVAILABLE;
    long written = EngineMetrics.UNAVAILABLE;
    long cancelled = 0;
    for (String line : lines) {
      if (line.startsWith("read_bytes:")) {
        read = Long.parseLong(line.substring("read_bytes:".length()).trim());
      } else if (line.startsWith("write_bytes:")) {
        written = Long.parseLong(line.substring("write_bytes:".length()).trim());
      } else if (line.startsWith("cancelled_write_bytes:")) {
        cancelled = Long.parseLong(line.substring("cancelled_write_bytes:".length()).trim());
      }
    }
    return new ChildProcessIo(read, written < 0 ? EngineMetrics.UNAVAILABLE : written - cancelled);
  }
}
