package dev.cairn.fs;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A lock refused to a second taker in this process stays held: POSIX locks belong to the process,
 * and the refused taker's channel, once closed, would have released the holder's lock, letting
 * another process take it. Checked in the kernel's table of locks ({@code /proc/locks}).
 */
class LocalFileSystemLockTest {
  @TempDir Path dir;

  @Test
  void aSecondTakerInThisProcessIsRefusedAndTheHolderKeepsTheLock() throws Exception {
    LocalFileSystem fs = new LocalFileSystem();
    Path lockFile = dir.resolve("LOCK");
    try (AutoCloseable held = fs.lock(lockFile)) {
      Assumptions.assumeTrue(lockedInKernel(lockFile), "this system lists no lock of this process in /proc/locks");
      IOException refused = assertThrows(IOException.class, () -> new LocalFileSystem().lock(lockFile));
      assertTrue(refused.getMessage().contains("already held by this process"), refused.getMessage());
      // The same file reached through another path is the same lock.
      Path other = Files.createDirectories(dir.resolve("sub")).resolve("../LOCK");
      assertThrows(IOException.class, () -> fs.lock(other));
      assertTrue(lockedInKernel(lockFile), "the refused takers released the holder's lock");
    }
    try (AutoCloseable again = fs.lock(lockFile)) {
      assertTrue(lockedInKernel(lockFile), "the lock is taken again once released");
    }
  }

  /** Whether the kernel lists a lock of this process on {@code file} ({@code /proc/locks}; false where there is none). */
  private static boolean lockedInKernel(Path file) throws IOException {
    Path locks = Path.of("/proc/locks");
    if (!Files.isReadable(locks)) {
      return false;
    }
    long inode = ((Number) Files.getAttribute(file, "unix:ino")).longValue();
    String pid = Long.toString(ProcessHandle.current().pid());
    for (String line : Files.readAllLines(locks)) {
      String[] f = line.trim().split("\\s+");
      // "1: POSIX  ADVISORY  WRITE 12345 fe:00:5349782 0 EOF"
      if (f.length >= 6 && f[4].equals(pid) && f[5].endsWith(":" + inode)) {
        return true;
      }
    }
    return false;
  }
}
