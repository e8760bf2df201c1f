package dev.cairn.e2e;

import dev.cairn.BackupInfo;
import dev.cairn.Backups;
import dev.cairn.Cairn;
import dev.cairn.WriteOptions;
import dev.cairn.testing.EngineCombo;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

/**
 * The child process of {@link BackupKillTest}. Arguments: the database directory, the backup
 * directory and the first round. Each round writes {@link #KEYS_PER_ROUND} keys of its own, prints
 * {@code backing-up ROUND}, backs the database up and prints {@code backup ID ROUND} once the
 * backup returned. It runs until it is killed.
 */
public final class BackupKillChild {
  static final int KEYS_PER_ROUND = 1000;
  /** The engine the child runs: block compaction, so backups meet tables appended in place. */
  static final EngineCombo COMBO = EngineCombo.of(EngineCombo.CompactionStyle.BLOCK, EngineCombo.CompactionScheduler.IMMEDIATE);

  private BackupKillChild() {}

  static byte[] key(long round, int i) {
    return String.format("round-%06d-%04d", round, i).getBytes(StandardCharsets.US_ASCII);
  }

  static byte[] value(long round, int i) {
    return ("value-" + round + "-" + i + "-" + "v".repeat(150)).getBytes(StandardCharsets.US_ASCII);
  }

  public static void main(String[] args) {
    Path dir = Path.of(args[0]);
    Path backupDir = Path.of(args[1]);
    long start = Long.parseLong(args[2]);
    PrintStream out = new PrintStream(System.out, true);
    Cairn db = Cairn.open(dir, KillChild.options(COMBO));
    Backups backups = Backups.open(backupDir);
    out.println("open");
    for (long round = start; ; round++) {
      for (int i = 0; i < KEYS_PER_ROUND; i++) {
        db.put(key(round, i), value(round, i), WriteOptions.NO_SYNC);
        // Overwrites of earlier rounds' keys dirty blocks of deeper tables, which block
        // compaction then appends to.
        db.put(key(round / 2, i), value(round / 2, i), WriteOptions.NO_SYNC);
      }
      out.println("backing-up " + round);
      BackupInfo made = backups.create(db);
      out.println("backup " + made.id() + " " + round);
    }
  }
}
