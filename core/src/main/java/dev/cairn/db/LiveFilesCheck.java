package dev.cairn.db;

import dev.cairn.MissingFilesException;
import dev.cairn.fs.FileNames;
import dev.cairn.fs.FileSystem;
import dev.cairn.model.BufferRun;
import dev.cairn.version.FileMetaData;
import dev.cairn.version.Version;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Checks, before an open writes anything, that every table the recovered version names is on disk
 * with at least the bytes the manifest records (a table may be longer: block compaction appends
 * before the manifest records the new footer). LevelDB does the same at open; without it a
 * damaged database opened, wrote a new manifest over itself and failed only when a read reached
 * the lost table.
 */
final class LiveFilesCheck {
  private LiveFilesCheck() {}

  /** A table the manifest names that is absent or shorter than recorded. */
  record Problem(FileMetaData file, int level, boolean inBuffer, long actualBytes) {
    boolean missing() {
      return actualBytes < 0;
    }

    String describe() {
      String where = (inBuffer ? "compaction buffer of level " : "level ") + level;
      return FileNames.table(file.number()) + " (" + where + ", " + String.format("%,d", file.totalBytes()) + " bytes"
          + (missing() ? ") is missing" : ") has only " + String.format("%,d", actualBytes) + " bytes");
    }
  }

  /**
   * Throws {@link MissingFilesException} naming every table of {@code version} that is missing or
   * short, each with the key range it held; returns quietly when all are present.
   */
  static void requirePresent(FileSystem fs, Path dir, Version version, String manifestName) throws IOException {
    List<Problem> problems = find(fs, dir, version);
    if (!problems.isEmpty()) {
      Problem first = problems.get(0);
      String reason = "database " + dir + ": " + problems.size() + " table(s) named by " + manifestName
          + " are missing or short: " + String.join("; ", problems.stream().map(Problem::describe).toList())
          + ". The open changed nothing: restore the files from a backup, or drop them with Cairn.repair"
          + " (cairn repair DIR), which reports the key ranges lost";
      throw new MissingFilesException(FileNames.table(first.file().number()), Math.max(0, first.actualBytes()),
          reason, problems.stream().map(p -> p.file().number()).toList());
    }
  }

  /** Every table of {@code version} that is missing or shorter than recorded, each once. */
  static List<Problem> find(FileSystem fs, Path dir, Version version) throws IOException {
    Map<Long, Problem> problems = new LinkedHashMap<>();
    for (int level = 0; level < version.numLevels(); level++) {
      for (FileMetaData f : version.files(level)) {
        check(fs, dir, f, level, false, problems);
      }
      for (BufferRun<FileMetaData> run : version.bufferRuns(level)) {
        for (FileMetaData f : run.allFiles()) {
          check(fs, dir, f, level, true, problems);
        }
      }
    }
    return new ArrayList<>(problems.values());
  }

  private static void check(FileSystem fs, Path dir, FileMetaData f, int level, boolean inBuffer,
      Map<Long, Problem> problems) throws IOException {
    if (problems.containsKey(f.number())) {
      return;
    }
    Path path = FileNames.tablePath(dir, f.number());
    long size = fs.exists(path) ? fs.size(path) : -1;
    if (size < f.totalBytes()) {
      problems.put(f.number(), new Problem(f, level, inBuffer, size));
    }
  }
}
