package dev.cairn.bench.device;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The slow device every engine sees: a real process in a capped group, reading directly, gets the
 * cap and no more, and the group counts its reads. On a machine without a block-I/O controller the
 * cap is refused with the reason instead.
 */
class ReadIopsCapTest {
  /** On the project's disk, not a temporary directory that may be a tmpfs without a device. */
  private static final Path DIR = Path.of("target", "read-iops-cap-test");
  private static final int CAP = 100;
  private static final int READS = 300;

  @Test
  void aDirectReadLoopInTheGroupRunsAtTheCapAndIsCounted() throws Exception {
    Files.createDirectories(DIR);
    if (!controllerPresent()) {
      IOException refused = assertThrows(IOException.class, () -> ReadIopsCap.create(DIR, CAP, "cap-test"));
      assertTrue(refused.getMessage().contains("block-I/O controller"), refused.getMessage());
      return;
    }
    Path file = DIR.resolve("blocks");
    writeRandom(file, 16 << 20);
    try (ReadIopsCap cap = ReadIopsCap.create(DIR, CAP, "cap-test")) {
      double seconds = runLoop(cap.wrap(javaCommand(file)));
      // The throttle lets a short burst through before it paces, so allow the first second's worth.
      assertTrue(seconds > (READS - CAP) / (double) CAP, READS + " direct reads at " + CAP + "/s took " + seconds + " s");
      // Every direct read is counted; the JVM's own start adds reads of its class files when the
      // page cache does not hold them (after a drop, say), so there is no upper bound to check.
      long served = cap.readsServed();
      assertTrue(served >= READS, "the group counted " + served + " reads of " + READS);
      // The same loop outside any cap: the device itself is far faster, so the cap is what held it.
      double uncapped = runLoop(javaCommand(file));
      assertTrue(uncapped < seconds / 3, "uncapped, " + READS + " direct reads took " + uncapped + " s against "
          + seconds + " s capped");
    }
  }

  @Test
  void aCapIsPositive() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> ReadIopsCap.create(DIR, 0, "cap-test"));
    assertTrue(e.getMessage().contains("positive"), e.getMessage());
  }

  @Test
  void aDevTDecodesAsTheKernelEncodesIt() {
    assertEquals(new BlockDevice(254, 0), BlockDevice.fromDevT(0xfe00L));
    assertEquals(new BlockDevice(8, 3), BlockDevice.fromDevT(0x0803L));
    // A minor above 255 keeps its high bits above the major's.
    assertEquals(new BlockDevice(1, 0x1003), BlockDevice.fromDevT(0x100_0103L));
    assertEquals("259:1", BlockDevice.parse("259:1").id());
  }

  @Test
  void bothInterfacesSetTheCapAndReadTheServedReadsOfTheirDevice() {
    BlockDevice vda = new BlockDevice(254, 0);
    assertEquals("254:0 400", ReadIopsCap.Version.V1.limit(vda, 400));
    assertEquals("254:0 riops=400", ReadIopsCap.Version.V2.limit(vda, 400));
    assertEquals(600, ReadIopsCap.Version.V1.reads("254:0 Read 600".split(" "), vda));
    assertEquals(-1, ReadIopsCap.Version.V1.reads("254:0 Write 9".split(" "), vda));
    assertEquals(-1, ReadIopsCap.Version.V1.reads("8:0 Read 600".split(" "), vda), "another device's line");
    assertEquals(7, ReadIopsCap.Version.V2.reads(
        "254:0 rbytes=28672 wbytes=0 rios=7 wios=0 dbytes=0 dios=0".split(" "), vda));
    assertEquals(-1, ReadIopsCap.Version.V2.reads("8:0 rbytes=1 rios=1".split(" "), vda));
  }

  private static boolean controllerPresent() {
    try {
      ReadIopsCap.availableVersion();
      return true;
    } catch (IOException e) {
      return false;
    }
  }

  private static List<String> javaCommand(Path file) {
    return List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-cp",
        System.getProperty("java.class.path"), DirectReadLoop.class.getName(), file.toString(),
        Integer.toString(READS));
  }

  private static double runLoop(List<String> command) throws Exception {
    Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
    assertTrue(p.waitFor(60, TimeUnit.SECONDS), "the read loop did not end");
    assertEquals(0, p.exitValue(), out);
    return Double.parseDouble(out.lines().reduce((a, b) -> b).orElseThrow());
  }

  private static void writeRandom(Path file, int bytes) throws IOException {
    byte[] chunk = new byte[1 << 20];
    Random random = new Random(1);
    try (OutputStream out = Files.newOutputStream(file)) {
      for (int written = 0; written < bytes; written += chunk.length) {
        random.nextBytes(chunk);
        out.write(chunk);
      }
    }
  }
}
