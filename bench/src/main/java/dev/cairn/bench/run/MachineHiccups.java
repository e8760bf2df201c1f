package dev.cairn.bench.run;

import dev.cairn.bench.cli.CommandFlags;
import dev.cairn.bench.cli.UsageException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * {@code hiccups [--threads N] [--seconds S]}: how often this machine stops a thread that does
 * nothing but read the clock, and for how long. A read's latency tail can hold no stall shorter
 * than the machine's own, whatever the engine, so this is the floor under every read p99 the
 * runner reports (docs/benchmarks.md, "The machine's hiccups").
 *
 * <p>Each thread spins reading {@link System#nanoTime()} and its own CPU time. A gap of at least
 * {@link #GAP_NANOS} between two readings is a hiccup. It is <b>off-CPU</b> when the thread's
 * CPU time did not advance with it (the kernel ran something else: another thread, an
 * interrupt's deferred work), and <b>on-CPU</b> when it did: the guest kernel believes the
 * thread ran, so the time went to the hypervisor taking the virtual CPU away, or to an
 * interrupt or fault charged to the thread. Neither is the engine's, and a read that meets one
 * is that much slower.
 */
public final class MachineHiccups {
  /**
   * The smallest gap counted: about the lowest read p99 the runner has reported on this machine
   * (16-60 us across the out-of-the-box runs), so a gap this size moves a read into the tail.
   */
  static final long GAP_NANOS = 20_000;
  /** The gap at and above which a hiccup alone puts a read beyond a typical p99. */
  static final long LONG_GAP_NANOS = 40_000;

  private MachineHiccups() {}

  /**
   * One thread's counts, kept in place: the spin loop allocates nothing, so that no collection
   * of ours shows up as a hiccup.
   */
  static final class Tally {
    private final long seconds;
    long readings;
    long gaps;
    long onCpuGaps;
    long longGaps;
    long longOnCpuGaps;
    long gapNanos;

    Tally(long seconds) {
      this.seconds = seconds;
    }

    /** One more pair of readings, {@code gap} apart on the wall clock and {@code cpu} on the thread's. */
    void add(long gap, long cpu) {
      readings++;
      if (gap < GAP_NANOS) {
        return;
      }
      boolean onCpu = onCpu(gap, cpu);
      gaps++;
      gapNanos += gap;
      if (onCpu) {
        onCpuGaps++;
      }
      if (gap >= LONG_GAP_NANOS) {
        longGaps++;
        if (onCpu) {
          longOnCpuGaps++;
        }
      }
    }

    String line(String name) {
      double s = seconds;
      return String.format(Locale.ROOT,
          "%-9s %,13d readings  %,6.0f hiccups/s >= %d us (%.0f%% on-CPU, mean %.1f us)  %,6.0f/s >= %d us"
              + " (%.0f%% on-CPU)  %.2f%% of the time stopped",
          name, readings, gaps / s, GAP_NANOS / 1000, percent(onCpuGaps, gaps),
          gaps == 0 ? 0.0 : gapNanos / 1e3 / gaps, longGaps / s, LONG_GAP_NANOS / 1000,
          percent(longOnCpuGaps, longGaps), 100.0 * gapNanos / (s * 1e9));
    }

    private static double percent(long part, long whole) {
      return whole == 0 ? 0 : 100.0 * part / whole;
    }
  }

  /**
   * Whether a gap of {@code gapNanos} in which the thread's CPU time advanced {@code cpuNanos}
   * was spent on the CPU as far as the guest kernel knows: at least 80% of it charged to the
   * thread (the CPU clock and the wall clock are read one after the other, not at once).
   */
  static boolean onCpu(long gapNanos, long cpuNanos) {
    return cpuNanos >= gapNanos * 8 / 10;
  }

  /** Runs the command; returns its report. */
  public static String run(String[] args) throws InterruptedException {
    Map<String, String> values = CommandFlags.parse("hiccups", args, List.of("--threads", "--seconds"));
    int threads = (int) CommandFlags.rangeLong(values, "--threads", 1, 1, 64);
    long seconds = CommandFlags.rangeLong(values, "--seconds", 15, 1, 3600);
    return report(measure(threads, seconds));
  }

  static List<Tally> measure(int threads, long seconds) throws InterruptedException {
    ThreadMXBean mx = ManagementFactory.getThreadMXBean();
    if (!mx.isCurrentThreadCpuTimeSupported()) {
      throw new UsageException("hiccups: this JVM cannot read a thread's CPU time");
    }
    List<Tally> results = new ArrayList<>();
    List<Thread> spinners = new ArrayList<>();
    long end = System.nanoTime() + seconds * 1_000_000_000L;
    for (int t = 0; t < threads; t++) {
      Thread spinner = new Thread(() -> {
        Tally c = spin(mx, end, seconds);
        synchronized (results) {
          results.add(c);
        }
      }, "hiccups-" + t);
      spinners.add(spinner);
      spinner.start();
    }
    for (Thread t : spinners) {
      t.join();
    }
    return results;
  }

  private static Tally spin(ThreadMXBean mx, long end, long seconds) {
    Tally c = new Tally(seconds);
    long wall = System.nanoTime();
    long cpu = mx.getCurrentThreadCpuTime();
    while (wall < end) {
      long wall2 = System.nanoTime();
      long cpu2 = mx.getCurrentThreadCpuTime();
      c.add(wall2 - wall, cpu2 - cpu);
      wall = wall2;
      cpu = cpu2;
    }
    return c;
  }

  private static String report(List<Tally> results) {
    StringBuilder sb = new StringBuilder(String.format(Locale.ROOT,
        "%d spinning thread(s) on %d processors; a hiccup is a gap of >= %d us between two clock readings%n",
        results.size(), Runtime.getRuntime().availableProcessors(), GAP_NANOS / 1000));
    for (int i = 0; i < results.size(); i++) {
      sb.append(results.get(i).line("thread " + i)).append('\n');
    }
    return sb.toString();
  }
}
