package dev.cairn.bench.run;

import dev.cairn.bench.BenchMain;
import dev.cairn.bench.RunConfig;
import dev.cairn.bench.device.ReadIopsCap;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Runs one (engine, workload) in a fresh JVM, the runner's default (docs/benchmarks.md, "One JVM
 * per run"). In one JVM the engines run one after another and share its JIT: the first Cairn
 * engine pays the warm-up that the later ones inherit, and the code profiles one engine leaves
 * shape how the next one's code is compiled, so a comparison's figures depended on its engine
 * order (a 1,000,000-record load: 84k puts/s first, 127k last; docs/results/issue20). A fresh JVM
 * gives every engine the same start.
 *
 * <p>The child is this JVM's own command line (same java, same flags such as {@code -Xmx}, same
 * class path) running {@code BenchMain child RESULT run FLAGS}; its progress lines are copied to
 * ours, and its {@link RunResult} comes back through {@link RunResultFile}. A child that dies
 * without writing one (killed, out of memory) yields a failed result that says how it ended.
 *
 * <p>On the capped slow device ({@code --device-read-iops}) each child runs in a block-I/O group
 * of its own ({@link ReadIopsCap}), joined before its JVM starts and removed after it ends, so
 * that the cap and the reads it counts are that run's alone.
 */
public final class ForkedRunner {
  /** JVM flags a child must not inherit: a second debugger on the parent's port would not start. */
  private static final List<String> NOT_INHERITED = List.of("-agentlib:jdwp", "-Xrunjdwp");

  private final RunConfig config;
  private final PrintStream progress;
  private final String[] flags;

  /**
   * @param flags the command line's flags (after the command word); each child gets them with
   *     its own engine and workload ({@link dev.cairn.bench.cli.Flags#forOneRun})
   */
  public ForkedRunner(RunConfig config, PrintStream progress, String[] flags) {
    this.config = config;
    this.progress = progress;
    this.flags = flags.clone();
  }

  public RunResult run(String engine, String workload) {
    Path result = null;
    ReadIopsCap cap = null;
    try {
      Files.createDirectories(config.dataDir());
      result = Files.createTempFile(config.dataDir(), "run-result-", ".bin");
      List<String> command = command(result, engine, workload);
      if (config.deviceCapped()) {
        cap = ReadIopsCap.create(config.dataDir(), config.deviceReadIops(), "cairn-run");
        command = cap.wrap(command);
      }
      Process child = new ProcessBuilder(command).redirectErrorStream(true).start();
      child.getOutputStream().close();
      try (BufferedReader lines = new BufferedReader(
          new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8))) {
        for (String line; (line = lines.readLine()) != null; ) {
          progress.println(line);
        }
      } finally {
        // Reached early only if copying failed or we were interrupted: do not leave the run going.
        if (child.isAlive() && Thread.currentThread().isInterrupted()) {
          child.destroyForcibly();
        }
      }
      int exit = child.waitFor();
      if (Files.size(result) == 0) {
        return failed(engine, workload, "the run's JVM exited with code " + exit + " without a result");
      }
      try {
        return RunResultFile.read(result);
      } catch (IOException e) {
        return failed(engine, workload, "the run's JVM exited with code " + exit + " leaving an unreadable result: " + e);
      }
    } catch (IOException e) {
      return failed(engine, workload, "could not run a JVM for the run: " + e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return failed(engine, workload, "interrupted");
    } finally {
      if (cap != null) {
        cap.close();
      }
      if (result != null) {
        try {
          Files.deleteIfExists(result);
        } catch (IOException e) {
          progress.println("could not delete " + result + ": " + e);
        }
      }
    }
  }

  List<String> command(Path result, String engine, String workload) {
    List<String> cmd = new ArrayList<>();
    cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    for (String arg : ManagementFactory.getRuntimeMXBean().getInputArguments()) {
      if (NOT_INHERITED.stream().noneMatch(arg::startsWith)) {
        cmd.add(arg);
      }
    }
    cmd.add("-cp");
    cmd.add(System.getProperty("java.class.path"));
    cmd.add(BenchMain.class.getName());
    cmd.add(BenchMain.CHILD_COMMAND);
    cmd.add(result.toString());
    cmd.add("run");
    cmd.addAll(dev.cairn.bench.cli.Flags.forOneRun(flags, engine, workload));
    return cmd;
  }

  private RunResult failed(String engine, String workload, String error) {
    progress.printf("[%s %s] FAILED: %s%n", engine, workload, error);
    return RunResult.failed(engine, workload, error, config.asMap());
  }
}
