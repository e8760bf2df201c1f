package dev.cairn.bench.copies;

import dev.cairn.bench.engine.CairnRecipe.Style;
import dev.cairn.bench.run.DirectorySize;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * Parts 1 and 2 for one compaction style: its database loaded and settled, a checkpoint taken and
 * deleted, then the backups, all on that one database.
 *
 * @param style the compaction style
 * @param loadSeconds the load's wall time (not a copy figure: what the database took to build)
 * @param settleSeconds the flush and compactions after the load, before the checkpoint (-1: still
 *     owed at {@link LoadedDatabase#SETTLE_LIMIT_NANOS})
 */
record StyleFigures(Style style, double loadSeconds, double settleSeconds, CheckpointFigures checkpoint,
    BackupFigures backup) {

  /**
   * Measures {@code style} in {@code dir} (created, and deleted at the end): the database in
   * {@code dir/db}, the checkpoint, backups and restore beside it.
   */
  static StyleFigures measure(Style style, Path dir, CopiesSettings s, PrintStream progress)
      throws IOException, InterruptedException {
    DirectorySize.deleteRecursively(dir); // an interrupted run's
    try (LoadedDatabase db = LoadedDatabase.create(dir.resolve("db"), style, s.valueBytes(), s.seed())) {
      double loadSeconds = db.load(s.records(), s.seed());
      double settleSeconds = db.settle();
      CheckpointFigures checkpoint = CheckpointFigures.measure(db, dir.resolve("checkpoint"));
      // Gone before the backups: block compaction rewrites a table whose file has a second name
      // instead of appending to it, and the backups should see the style as it runs alone.
      DirectorySize.deleteRecursively(dir.resolve("checkpoint"));
      BackupFigures backup = BackupFigures.measure(db, s.records(), s.seed() + 1, dir.resolve("backups"),
          dir.resolve("restore"));
      StyleFigures f = new StyleFigures(style, loadSeconds, settleSeconds, checkpoint, backup);
      progress.println(f.line());
      return f;
    } finally {
      DirectorySize.deleteRecursively(dir);
    }
  }

  /** One progress line. */
  String line() {
    String settled = settleSeconds < 0 ? "compactions still owed at the settling limit"
        : String.format(Locale.ROOT, "settled in %.1f s", settleSeconds);
    return String.format(Locale.ROOT, "copies: %s loaded in %.1f s, %s; checkpoint %.3f s "
            + "(%d tables linked, %d copied); full backup %.1f s (%.0f MiB); incremental %.1f s (%.0f MiB); "
            + "verify %.1f s; restore %.1f s",
        style, loadSeconds, settled, checkpoint.seconds(), checkpoint.linked(), checkpoint.copied(),
        backup.fullSeconds(), backup.fullBytes() / 1048576.0, backup.incrementalSeconds(),
        backup.incrementalBytes() / 1048576.0, backup.verifySeconds(), backup.restoreSeconds());
  }

  Map<String, Object> toJson() {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("style", style.name());
    m.put("load_seconds", loadSeconds);
    m.put("settle_seconds", settleSeconds);
    m.put("checkpoint", checkpoint.toJson());
    m.put("backup", backup.toJson());
    return m;
  }
}
