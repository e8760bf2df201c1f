package dev.cairn.bench.copies;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Where the figures were measured, for report.md's header (of {@code copies} and {@code
 * features}): figures from another machine, JVM or commit are other figures.
 *
 * @param processors the processors this JVM may use (what {@code nproc} prints)
 * @param memoryBytes the memory the operating system reports (a container's limit where it has one)
 * @param maxHeapBytes the JVM's heap limit ({@code -Xmx} or its default), which bounds the heap figures
 * @param java the JVM's version
 * @param jvmArguments the JVM's own arguments ({@code -Xmx} and the like)
 * @param commit {@code git rev-parse HEAD} in the working directory, "+ local changes" when
 *     tracked files differ from it, or "unknown" outside a repository
 */
public record Machine(int processors, long memoryBytes, long maxHeapBytes, String java, List<String> jvmArguments,
    String commit) {

  public static Machine describe() {
    long memory = ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os
        ? os.getTotalMemorySize() : -1;
    return new Machine(Runtime.getRuntime().availableProcessors(), memory, Runtime.getRuntime().maxMemory(),
        System.getProperty("java.vm.name") + " " + Runtime.version(),
        ManagementFactory.getRuntimeMXBean().getInputArguments(), currentCommit());
  }

  private static String currentCommit() {
    String head = git("rev-parse", "HEAD");
    if (head == null || head.isEmpty()) {
      return "unknown";
    }
    String changes = git("status", "--porcelain", "--untracked-files=no");
    return changes == null || changes.isEmpty() ? head : head + " + local changes";
  }

  /** {@code git ARGS}' output, trimmed; null when git is absent, fails or takes more than 10 s. */
  private static String git(String... args) {
    List<String> command = new ArrayList<>(List.of("git"));
    command.addAll(List.of(args));
    try {
      Process p = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.DISCARD).start();
      byte[] out = p.getInputStream().readAllBytes();
      if (!p.waitFor(10, TimeUnit.SECONDS) || p.exitValue() != 0) {
        p.destroy();
        return null;
      }
      return new String(out, StandardCharsets.UTF_8).trim();
    } catch (IOException e) {
      return null;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return null;
    }
  }

  /** The report's machine line: processors, memory, JVM, heap limit, JVM arguments and commit. */
  public String markdown() {
    double gib = 1 << 30;
    StringBuilder sb = new StringBuilder(String.format(Locale.ROOT,
        "Machine: %d processors (nproc), %.1f GiB of memory; %s, heap limit %.1f GiB", processors, memoryBytes / gib,
        java, maxHeapBytes / gib));
    if (!jvmArguments.isEmpty()) {
      sb.append(", JVM arguments `").append(String.join(" ", jvmArguments)).append('`');
    }
    return sb.append("; commit `").append(commit).append("`.").toString();
  }

  public Map<String, Object> toJson() {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("processors", processors);
    m.put("memory_bytes", memoryBytes);
    m.put("max_heap_bytes", maxHeapBytes);
    m.put("java", java);
    m.put("jvm_arguments", jvmArguments);
    m.put("commit", commit);
    return m;
  }
}
