package dev.cairn.bench.copies;

import dev.cairn.BackupInfo;
import dev.cairn.Backups;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A full backup into an empty backup directory, 10% of the keys overwritten, an incremental
 * backup, then the incremental one verified and restored: each timed. The bytes a backup wrote
 * are the growth of the directory's {@code shared/}, where its tables go (docs/operations.md,
 * "Backups"); its own manifest and record are a few KiB beside them.
 *
 * @param fullSeconds the first backup's wall time
 * @param fullBytes the table bytes it copied
 * @param fullTables the tables it copied
 * @param overwriteSeconds the overwrite's wall time (not a backup figure: what the database did between the two)
 * @param settleSeconds the flush and compactions after the overwrite, before the second backup (-1:
 *     still owed at the limit)
 * @param incrementalSeconds the second backup's wall time
 * @param incrementalBytes the table bytes it copied
 * @param incrementalTables the tables it copied
 * @param verifySeconds {@code verify} of the second backup
 * @param restoreSeconds {@code restoreLatest} of the second backup into a new directory
 * @param restoredBytes the bytes that restore wrote (the second backup's {@link BackupInfo#bytes()})
 */
record BackupFigures(double fullSeconds, long fullBytes, int fullTables, double overwriteSeconds,
    double settleSeconds, double incrementalSeconds, long incrementalBytes, int incrementalTables,
    double verifySeconds, double restoreSeconds, long restoredBytes) {
  /** The share of the keys overwritten between the two backups. */
  static final double OVERWRITTEN = 0.10;

  /**
   * Backs {@code db} up into {@code backupDir} (created), overwrites {@link #OVERWRITTEN} of its
   * {@code records} keys, backs it up again, verifies that backup and restores it into {@code
   * restoreDir}, which must not exist.
   */
  static BackupFigures measure(LoadedDatabase db, long records, long seed, Path backupDir, Path restoreDir)
      throws InterruptedException {
    Path shared = backupDir.resolve("shared");
    try (Backups backups = Backups.open(backupDir)) {
      long start = System.nanoTime();
      backups.create(db.db());
      double fullSeconds = seconds(start);
      long fullBytes = DirectoryFiles.bytes(shared);
      int fullTables = DirectoryFiles.count(shared);

      double overwriteSeconds = db.overwrite(records, OVERWRITTEN, seed);
      double settleSeconds = db.settle();

      start = System.nanoTime();
      BackupInfo second = backups.create(db.db());
      double incrementalSeconds = seconds(start);
      long incrementalBytes = DirectoryFiles.bytes(shared) - fullBytes;
      int incrementalTables = DirectoryFiles.count(shared) - fullTables;

      start = System.nanoTime();
      backups.verify(second.id());
      double verifySeconds = seconds(start);

      start = System.nanoTime();
      BackupInfo restored = backups.restoreLatest(restoreDir);
      double restoreSeconds = seconds(start);
      return new BackupFigures(fullSeconds, fullBytes, fullTables, overwriteSeconds, settleSeconds,
          incrementalSeconds, incrementalBytes, incrementalTables, verifySeconds, restoreSeconds, restored.bytes());
    }
  }

  private static double seconds(long start) {
    return (System.nanoTime() - start) / 1e9;
  }

  Map<String, Object> toJson() {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("full_seconds", fullSeconds);
    m.put("full_bytes", fullBytes);
    m.put("full_tables", fullTables);
    m.put("overwrite_seconds", overwriteSeconds);
    m.put("settle_seconds", settleSeconds);
    m.put("incremental_seconds", incrementalSeconds);
    m.put("incremental_bytes", incrementalBytes);
    m.put("incremental_tables", incrementalTables);
    m.put("verify_seconds", verifySeconds);
    m.put("restore_seconds", restoreSeconds);
    m.put("restored_bytes", restoredBytes);
    return m;
  }
}
