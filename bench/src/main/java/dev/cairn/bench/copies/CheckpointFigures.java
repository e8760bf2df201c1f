package dev.cairn.bench.copies;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One timed {@code db.checkpoint(dir)} and what it left in {@code dir}.
 *
 * @param seconds the call's wall time
 * @param bytes the bytes of every file in the checkpoint directory, linked ones counted in full
 * @param tables the checkpoint's tables
 * @param linked of those, the ones whose file has a second name (the database's): hard links
 * @param copied the ones with one name: copied, because a link failed or the table was being appended
 * @param copiedBytes the copied tables' bytes: the disk space the checkpoint took beyond its manifest
 * @param databaseTableBytes the database's table bytes when the checkpoint was taken
 */
record CheckpointFigures(double seconds, long bytes, int tables, int linked, int copied, long copiedBytes,
    long databaseTableBytes) {

  /** Checkpoints {@code db} into {@code dir}, which must not exist, and counts what it holds. */
  static CheckpointFigures measure(LoadedDatabase db, Path dir) {
    long databaseTableBytes = db.tableBytes();
    long start = System.nanoTime();
    db.db().checkpoint(dir);
    double seconds = (System.nanoTime() - start) / 1e9;
    // Counted at once: a linked table the database compacts away later keeps one name only.
    List<DirectoryFiles.TableFile> tables = DirectoryFiles.tables(dir);
    int linked = (int) tables.stream().filter(DirectoryFiles.TableFile::linked).count();
    long copiedBytes = tables.stream().filter(t -> !t.linked()).mapToLong(DirectoryFiles.TableFile::bytes).sum();
    return new CheckpointFigures(seconds, DirectoryFiles.bytes(dir), tables.size(), linked, tables.size() - linked,
        copiedBytes, databaseTableBytes);
  }

  Map<String, Object> toJson() {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("seconds", seconds);
    m.put("bytes", bytes);
    m.put("tables", tables);
    m.put("tables_linked", linked);
    m.put("tables_copied", copied);
    m.put("copied_bytes", copiedBytes);
    m.put("database_table_bytes", databaseTableBytes);
    return m;
  }
}
