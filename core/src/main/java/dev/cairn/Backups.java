package dev.cairn;

import dev.cairn.db.BackupEngine;
import dev.cairn.fs.FileSystem;
import dev.cairn.fs.LocalFileSystem;
import java.nio.file.Path;
import java.util.List;

/**
 * An incremental backup directory: each backup copies only the tables no earlier backup holds,
 * and records every file it needs with its checksums (docs/operations.md, "Backups"). One process
 * uses a directory at a time (it holds the directory's {@code LOCK} until {@link #close()}). A
 * backup interrupted at any point, the process killed included, leaves the earlier ones whole;
 * what it left behind is deleted by the next backup or purge.
 *
 * <pre>{@code
 * try (Backups backups = Backups.open(Path.of("/srv/backups/orders"))) {
 *   backups.create(db);                         // db: open for writes, writes go on meanwhile
 *   backups.purgeOldBackups(7);
 * }
 * try (Backups backups = Backups.open(Path.of("/srv/backups/orders"))) {
 *   backups.restoreLatest(Path.of("/srv/data/orders"));   // a new directory, then Cairn.open it
 * }
 * }</pre>
 */
public final class Backups implements AutoCloseable {
  private final BackupEngine engine;

  private Backups(BackupEngine engine) {
    this.engine = engine;
  }

  /** Opens (creating) the backup directory {@code dir} on the local file system. */
  public static Backups open(Path dir) {
    return open(dir, new LocalFileSystem());
  }

  /** Opens (creating) the backup directory {@code dir} on {@code fs}. */
  public static Backups open(Path dir, FileSystem fs) {
    if (dir == null || fs == null) {
      throw new IllegalArgumentException("backup directory and file system must not be null");
    }
    return new Backups(BackupEngine.open(dir, fs));
  }

  /**
   * Backs up {@code db}, which must be open for writes (a read-only view cannot flush): its
   * memtable is flushed, so the backup holds every write acknowledged before the call.
   */
  public BackupInfo create(Cairn db) {
    if (db == null) {
      throw new IllegalArgumentException("database must not be null");
    }
    return engine.create(db);
  }

  /** The finished backups, oldest first. */
  public List<BackupInfo> list() {
    return engine.list();
  }

  /**
   * Reads every file of backup {@code id} and checks it against the checksums the backup
   * recorded: {@link CorruptionException} names the first file that differs and the offset of its
   * first damaged megabyte.
   */
  public BackupInfo verify(long id) {
    return engine.verify(id);
  }

  /**
   * Restores backup {@code id} into {@code dir}, which must not exist; every byte is checked
   * against the backup's checksums on the way. Open it with {@link Cairn#open}.
   */
  public BackupInfo restore(long id, Path dir) {
    if (dir == null) {
      throw new IllegalArgumentException("restore directory must not be null");
    }
    return engine.restore(id, dir);
  }

  /** Restores the newest backup into {@code dir} ({@link #restore}). */
  public BackupInfo restoreLatest(Path dir) {
    List<BackupInfo> all = list();
    if (all.isEmpty()) {
      throw new CairnException("no backup to restore: the backup directory holds none");
    }
    return restore(all.get(all.size() - 1).id(), dir);
  }

  /** Deletes all but the newest {@code keep} backups and the tables only they held; returns those deleted. */
  public List<BackupInfo> purgeOldBackups(int keep) {
    return engine.purgeOldBackups(keep);
  }

  /** Releases the directory's LOCK. */
  @Override
  public void close() {
    engine.close();
  }
}
