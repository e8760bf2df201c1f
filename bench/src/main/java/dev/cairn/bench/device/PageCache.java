package dev.cairn.bench.device;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * The machine's page cache, dropped before a measured phase on the capped device so that every
 * engine starts it from the device, whatever the load left cached. Dropping is machine-wide and
 * needs root; dirty pages are written back first ({@code sync}), since only clean ones are dropped.
 */
public final class PageCache {
  private static final Path DROP_CACHES = Path.of("/proc/sys/vm/drop_caches");

  private PageCache() {}

  /** Writes dirty pages back and drops the clean page cache ({@code drop_caches} = 1). */
  public static void drop() throws IOException {
    try {
      Process sync = new ProcessBuilder("sync").inheritIO().start();
      if (!sync.waitFor(120, TimeUnit.SECONDS) || sync.exitValue() != 0) {
        sync.destroyForcibly();
        throw new IOException("sync did not finish within 120 s before dropping the page cache");
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted while syncing before dropping the page cache", e);
    }
    try {
      Files.writeString(DROP_CACHES, "1", StandardCharsets.US_ASCII);
    } catch (IOException e) {
      throw new IOException("cannot drop the page cache through " + DROP_CACHES + " (it needs root): " + e, e);
    }
  }
}
