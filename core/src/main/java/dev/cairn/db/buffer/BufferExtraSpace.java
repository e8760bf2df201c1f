package dev.cairn.db.buffer;

import dev.cairn.model.BufferRun;
import dev.cairn.version.FileMetaData;
import dev.cairn.version.Version;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The files only a version's compaction buffers still hold (the buffer's extra disk space), each
 * counted once, under the first level whose buffer holds it; carried files included. What {@link
 * dev.cairn.Stats.Space#amplification} and the buffer's stats count, and what the cold-run budget weighs.
 * (An install's draft measures the same on the version it is building: {@code
 * BufferDraft.extraBytes}.)
 */
record BufferExtraSpace(List<Long> bytesByLevel, int files) {
  static BufferExtraSpace of(Version v) {
    Set<Long> levelFiles = new HashSet<>();
    for (int level = 0; level < v.numLevels(); level++) {
      v.files(level).forEach(f -> levelFiles.add(f.number()));
    }
    Set<Long> counted = new HashSet<>();
    List<Long> bytesByLevel = new ArrayList<>();
    for (int level = 0; level < v.numLevels(); level++) {
      long levelBytes = 0;
      for (BufferRun<FileMetaData> t : v.bufferRuns(level)) {
        for (FileMetaData f : t.allFiles()) {
          if (!levelFiles.contains(f.number()) && counted.add(f.number())) {
            levelBytes += f.totalBytes();
          }
        }
      }
      bytesByLevel.add(levelBytes);
    }
    return new BufferExtraSpace(List.copyOf(bytesByLevel), counted.size());
  }

  long bytes() {
    return bytesByLevel.stream().mapToLong(Long::longValue).sum();
  }
}
