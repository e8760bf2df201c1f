package dev.cairn.bench.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cairn.bench.BenchMain;
import dev.cairn.bench.cli.UsageException;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

class MachineHiccupsTest {
  @Test
  void aGapIsOnCpuWhenTheThreadWasChargedForMostOfIt() {
    assertTrue(MachineHiccups.onCpu(50_000, 50_000));
    assertTrue(MachineHiccups.onCpu(50_000, 40_000));
    assertFalse(MachineHiccups.onCpu(50_000, 39_999));
    assertFalse(MachineHiccups.onCpu(50_000, 0));
  }

  @Test
  void theTallyCountsGapsByLengthAndWhereTheTimeWent() {
    MachineHiccups.Tally t = new MachineHiccups.Tally(1);
    t.add(100, 100); // an ordinary reading
    t.add(19_999, 0); // just short of a hiccup
    t.add(20_000, 20_000); // a short hiccup, on the CPU
    t.add(45_000, 1_000); // a long one, off the CPU
    t.add(60_000, 59_000); // a long one, on the CPU
    assertEquals(5, t.readings);
    assertEquals(3, t.gaps);
    assertEquals(2, t.onCpuGaps);
    assertEquals(2, t.longGaps);
    assertEquals(1, t.longOnCpuGaps);
    assertEquals(125_000, t.gapNanos);
  }

  @Test
  void aShortRunReportsEachThreadAndNoHiccupLongerThanTheRun() throws Exception {
    List<MachineHiccups.Tally> tallies = MachineHiccups.measure(2, 1);
    assertEquals(2, tallies.size());
    for (MachineHiccups.Tally t : tallies) {
      assertTrue(t.readings > 1000, "a second of spinning read the clock only " + t.readings + " times");
      assertTrue(t.gaps <= t.readings && t.onCpuGaps <= t.gaps && t.longGaps <= t.gaps);
      assertTrue(t.gapNanos <= 2_000_000_000L, "gaps add up to more than the run: " + t.gapNanos);
    }
  }

  @Test
  void theCommandPrintsOneLinePerThreadAndRejectsBadFlags() throws Exception {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int code = BenchMain.execute(new String[] {"hiccups", "--threads", "2", "--seconds", "1"},
        new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
    assertEquals(BenchMain.EXIT_OK, code, err.toString(StandardCharsets.UTF_8));
    String report = out.toString(StandardCharsets.UTF_8);
    assertTrue(report.contains("thread 0") && report.contains("thread 1") && report.contains("hiccups/s"), report);
    assertThrows(UsageException.class, () -> MachineHiccups.run(new String[] {"--threads", "0"}));
    assertThrows(UsageException.class, () -> MachineHiccups.run(new String[] {"--seconds", "soon"}));
    assertThrows(UsageException.class, () -> MachineHiccups.run(new String[] {"--turbo", "1"}));
    assertThrows(UsageException.class, () -> MachineHiccups.run(new String[] {"--threads"}));
  }
}
