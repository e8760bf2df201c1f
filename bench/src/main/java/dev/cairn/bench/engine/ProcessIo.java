package dev.cairn.bench.engine;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Bytes this process has caused to be written to storage, from Linux's {@code /proc/self/io}
 * ({@code write_bytes - cancelled_write_bytes}). The runner drives one engine at a time, so the
 * delta over a run is that engine's device writes (plus the runner's few kilobytes of output);
 * used for engines that count nothing themselves. peers.md: RocksDB's own counters agreed with
 * this figure within 0.2%.
 */
public final class ProcessIo {
  private static final Path PROC_SELF_IO = Path.of("/proc/self/io");

  private ProcessIo() {}

  /** Cumulative bytes written, or {@link EngineMetrics#UNAVAILABLE} off Linux. */
  public static long bytesWritten() {
    try {
      long written = 0;
      long cancelled = 0;
      for (String line : Files.readAllLines(PROC_SELF_IO)) {
        if (line.startsWith("write_bytes:")) {
          written = Long.parseLong(line.substring("write_bytes:".length()).trim());
        } else if (line.startsWith("cancelled_write_bytes:")) {
          cancelled = Long.parseLong(line.substring("cancelled_write_bytes:".length()).trim());
        }
      }
      return written - cancelled;
    } catch (IOException | RuntimeException e) {
      return EngineMetrics.UNAVAILABLE;
    }
  }
}
