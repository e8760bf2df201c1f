package dev.cairn.bench.run;

import dev.cairn.bench.RunConfig;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The runs of an unfinished round of a series ({@code compare --repeat}, {@code matrix},
 * {@code blockdb}), kept one file each ({@link RunResultFile}) in the round's {@code runs/} folder
 * as they end, so that a series stopped in the middle of a round of hour-long runs resumes at the
 * run it was in. A kept run is used again only if it ended without error under the same
 * configuration and by this runner's format; anything else runs again. The folder goes once the
 * round is written whole.
 *
 * <p>A round resumed this way ran its engines at two times, not back to back: the round's report
 * says nothing of it, the progress lines do.
 */
public final class KeptRuns {
  /** A round that keeps nothing (a single {@code run} or {@code compare}). */
  public static final KeptRuns NONE = new KeptRuns(null, null, null);

  private final Path dir;
  private final RunConfig config;
  private final PrintStream progress;

  private KeptRuns(Path dir, RunConfig config, PrintStream progress) {
    this.dir = dir;
    this.config = config;
    this.progress = progress;
  }

  /** The kept runs of the round written into {@code roundDir}. */
  public static KeptRuns in(Path roundDir, RunConfig config, PrintStream progress) {
    return new KeptRuns(roundDir.resolve("runs"), config, progress);
  }

  /** The run of {@code engine} and {@code workload} this round kept, if it may stand. */
  public Optional<RunResult> get(String engine, String workload) {
    if (dir == null || !Files.isRegularFile(file(engine, workload))) {
      return Optional.empty();
    }
    try {
      RunResult r = RunResultFile.read(file(engine, workload));
      Map<String, Object> recorded = new LinkedHashMap<>(r.config());
      recorded.remove("jvm_pid");
      RunConfig.KEYS_ADDED_LATER.forEach(recorded::putIfAbsent);
      if (r.ok() && recorded.equals(config.asMap())) {
        progress.println(file(engine, workload) + " holds this run, ended before the series stopped: kept");
        return Optional.of(r);
      }
      progress.println(file(engine, workload) + " holds a failed run or one of another configuration: run again");
    } catch (IOException e) {
      progress.println(file(engine, workload) + " is unreadable (" + e.getMessage() + "): run again");
    }
    return Optional.empty();
  }

  /** Keeps a run that just ended. */
  public void keep(RunResult r) throws IOException {
    if (dir != null) {
      Files.createDirectories(dir);
      RunResultFile.write(file(r.engine(), r.workload()), r);
    }
  }

  /** Drops the kept runs once their round is written whole. */
  public void clear() throws IOException {
    if (dir != null && Files.isDirectory(dir)) {
      DirectorySize.deleteRecursively(dir);
    }
  }

  private Path file(String engine, String workload) {
    return dir.resolve(engine + "-" + workload + ".result");
  }
}
