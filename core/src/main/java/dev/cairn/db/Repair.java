package dev.cairn.db;

import dev.cairn.CairnException;
import dev.cairn.CairnIOException;
import dev.cairn.Options;
import dev.cairn.RepairReport;
import dev.cairn.db.base.Engine;
import dev.cairn.fs.FileNames;
import dev.cairn.model.BufferEntry;
import dev.cairn.model.BufferRun;
import dev.cairn.util.Teardown;
import dev.cairn.version.FileMetaData;
import dev.cairn.version.Version;
import dev.cairn.version.VersionEdit;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * {@link dev.cairn.Cairn#repair}: drops from the manifest the tables that are missing or shorter
 * than recorded ({@link LiveFilesCheck}), so that a damaged database opens again with what is
 * left. A level's table is deleted from its level: its keys fall back to older versions below it.
 * A compaction buffer's entry whose file (or a file it carries) is gone is replaced by a removed
 * marker over the same range, so reads there fall back to the level's own file and never to an
 * older buffer run; a buffer holds copies, so nothing is lost. Writes one manifest edit (which
 * starts a new manifest) and nothing else; a database with nothing missing is not touched.
 */
public final class Repair {
  private Repair() {}

  public static RepairReport run(Path dir, Options options) {
    if (!options.fileSystem().exists(dir.resolve(FileNames.CURRENT))) {
      throw new CairnException("database " + dir + " does not exist (no CURRENT file); there is nothing to repair");
    }
    AutoCloseable lock = DatabaseDirectory.prepareAndLock(options.fileSystem(), dir, options);
    Engine engine;
    try {
      engine = new Engine(dir, options);
    } catch (RuntimeException | Error e) {
      DatabaseDirectory.unlockQuietly(lock);
      throw e;
    }
    engine.mutex().lock();
    try {
      engine.versions().recover();
      Version v = engine.versions().current();
      List<LiveFilesCheck.Problem> problems = LiveFilesCheck.find(engine.fs(), dir, v);
      if (problems.isEmpty()) {
        return new RepairReport(List.of());
      }
      Map<Long, LiveFilesCheck.Problem> byNumber = problems.stream()
          .collect(Collectors.toMap(p -> p.file().number(), Function.identity()));
      VersionEdit edit = new VersionEdit();
      List<RepairReport.DroppedTable> dropped = new ArrayList<>();
      Set<Long> reported = new HashSet<>();
      for (int level = 0; level < v.numLevels(); level++) {
        for (FileMetaData f : v.files(level)) {
          if (byNumber.containsKey(f.number())) {
            edit.deleteFile(level, f.number());
            dropped.add(describe(byNumber.get(f.number()), level, false));
            reported.add(f.number());
          }
        }
      }
      for (int level = 0; level < v.numLevels(); level++) {
        for (BufferRun<FileMetaData> run : v.bufferRuns(level)) {
          for (BufferEntry<FileMetaData> entry : run.entries()) {
            List<Long> gone = filesOf(entry).stream().filter(byNumber::containsKey).toList();
            if (gone.isEmpty()) {
              continue;
            }
            edit.removeFromBuffer(level, run.id(), entry);
            edit.addToBuffer(level, run.id(), new BufferEntry.Removed<>(entry.smallestUserKey(), entry.largestUserKey()));
            for (long number : gone) {
              if (reported.add(number)) {
                dropped.add(describe(byNumber.get(number), level, true));
              }
            }
          }
        }
      }
      engine.versions().logAndApply(edit);
      return new RepairReport(dropped);
    } catch (IOException e) {
      throw new CairnIOException("repairing database " + dir, e);
    } finally {
      engine.mutex().unlock();
      Teardown.runAll("releasing database " + dir + " after repairing it",
          () -> closeManifest(engine),
          engine::releaseCaches,
          () -> DatabaseDirectory.unlockQuietly(lock));
    }
  }

  private static void closeManifest(Engine engine) {
    try {
      engine.versions().close();
    } catch (IOException e) {
      // The edit is synced by logAndApply before it returns; closing only releases the file.
    }
  }

  /** The files an entry reads: its own and those of the buffer it carries. */
  private static Set<Long> filesOf(BufferEntry<FileMetaData> entry) {
    Set<Long> out = new HashSet<>();
    if (entry instanceof BufferEntry.File<FileMetaData> file) {
      out.add(file.meta().number());
      for (BufferRun<FileMetaData> carried : file.carried()) {
        carried.allFiles().forEach(f -> out.add(f.number()));
      }
    }
    return out;
  }

  private static RepairReport.DroppedTable describe(LiveFilesCheck.Problem p, int level, boolean inBuffer) {
    FileMetaData f = p.file();
    String problem = p.missing() ? "missing" : "only " + p.actualBytes() + " of " + f.totalBytes() + " bytes";
    return new RepairReport.DroppedTable(FileNames.table(f.number()), level, inBuffer, f.smallestUserKey(),
        f.largestUserKey(), f.entries(), problem);
  }
}
