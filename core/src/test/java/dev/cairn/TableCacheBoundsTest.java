package dev.cairn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.management.UnixOperatingSystemMXBean;
import java.lang.management.ManagementFactory;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

/** The table cache's derived bounds, shape in and bounds out, and that the options carry them. */
class TableCacheBoundsTest {
  @ParameterizedTest(name = "open-file limit {0} -> {1} tables")
  @CsvSource({
      "0, 1000",          // unknown
      "-1, 1000",         // unknown
      "1024, 500",        // a shell's soft limit: never below the fixed count of before
      "4096, 1024",       // a quarter
      "20000, 5000",      // this project's CI machines
      "524288, 100000",   // systemd's hard limit: capped
      "10240, 2560"})     // macOS, where the JVM raises the limit to 10,240
  void filesAreAQuarterOfTheOpenFileLimitWithinTheirBounds(long limit, int files) {
    assertEquals(files, TableCacheBounds.files(limit));
  }

  @ParameterizedTest(name = "heap {0} MiB -> {1} MiB")
  @CsvSource({
      "64, 32",           // the floor
      "256, 32",
      "1024, 128",        // an eighth
      "5888, 736"})
  void bytesAreAnEighthOfTheHeapAtLeast32MiB(long heapMib, long bytesMib) {
    assertEquals(bytesMib << 20, TableCacheBounds.bytes(heapMib << 20));
  }

  @Test
  void theOpenFileLimitIsReadWhereTheJvmReportsIt() {
    if (ManagementFactory.getOperatingSystemMXBean() instanceof UnixOperatingSystemMXBean unix) {
      assertEquals(TableCacheBounds.files(unix.getMaxFileDescriptorCount()), TableCacheBounds.filesForThisProcess());
    }
  }

  @Test
  void optionsLeftAloneTakeTheProcessDerivedBoundsAndSetOnesKeepTheirValue() {
    Options derived = Options.defaults();
    assertEquals(TableCacheBounds.filesForThisProcess(), derived.tableCacheFiles());
    assertEquals(TableCacheBounds.bytesForThisProcess(), derived.tableCacheBytes());
    assertTrue(derived.toString().contains("tableCacheFiles=" + derived.tableCacheFiles() + " (derived)"), derived.toString());
    assertTrue(derived.toString().contains("tableCacheBytes=" + derived.tableCacheBytes() + " (derived)"), derived.toString());
    Options set = Options.builder().tableCacheFiles(64).tableCacheBytes(8L << 20).build();
    assertEquals(64, set.tableCacheFiles());
    assertEquals(8L << 20, set.tableCacheBytes());
    assertTrue(set.toString().contains("tableCacheFiles=64,"), set.toString());
  }
}
