package dev.cairn.tools;

import dev.cairn.BackupInfo;
import dev.cairn.Backups;
import dev.cairn.Cairn;
import dev.cairn.Options;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;

/** The tool's backup commands: backup, list-backups, verify-backup, restore, purge-backups. */
final class BackupCommands {
  private BackupCommands() {}

  /** Runs {@code command} with its positional arguments; returns the exit code. */
  static int run(Command command, String[] rest, Options.Builder options, PrintStream out) {
    switch (command) {
      case BACKUP -> {
        Path db = CairnTool.databaseDir(rest[0]);
        try (Cairn open = Cairn.open(db, options.createIfMissing(false).build());
            Backups backups = Backups.open(Path.of(rest[1]))) {
          out.println("backup " + describe(backups.create(open)) + " of " + db + " in " + rest[1]);
        }
      }
      case LIST_BACKUPS -> {
        try (Backups backups = Backups.open(existing(rest[0]))) {
          out.println("id\tcreated\tsequence\tfiles\tbytes");
          for (BackupInfo b : backups.list()) {
            out.println(b.id() + "\t" + b.created() + "\t" + b.lastSequence() + "\t" + b.files() + "\t" + b.bytes());
          }
        }
      }
      case VERIFY_BACKUP -> {
        try (Backups backups = Backups.open(existing(rest[0]))) {
          List<Long> ids = rest.length > 1 ? List.of(number(rest[1], "ID"))
              : backups.list().stream().map(BackupInfo::id).toList();
          for (long id : ids) {
            out.println("ok: backup " + describe(backups.verify(id)));
          }
          if (ids.isEmpty()) {
            out.println("no backups in " + rest[0]);
          }
        }
      }
      case RESTORE -> {
        try (Backups backups = Backups.open(existing(rest[0]))) {
          Path target = Path.of(rest[1]);
          BackupInfo b = rest.length > 2 ? backups.restore(number(rest[2], "ID"), target) : backups.restoreLatest(target);
          out.println("restored backup " + describe(b) + " into " + target);
        }
      }
      case PURGE_BACKUPS -> {
        try (Backups backups = Backups.open(existing(rest[0]))) {
          long keep = number(rest[1], "KEEP");
          List<BackupInfo> gone = backups.purgeOldBackups((int) Math.min(keep, Integer.MAX_VALUE));
          out.println("deleted " + gone.size() + " backup(s)" + (gone.isEmpty() ? ""
              : ": " + gone.stream().map(b -> Long.toString(b.id())).toList()) + "; " + backups.list().size() + " left");
        }
      }
      default -> throw new IllegalStateException(command + " is not a backup command");
    }
    return CairnTool.OK;
  }

  private static String describe(BackupInfo b) {
    return b.id() + " (" + b.created() + ", " + b.files() + " files, " + b.bytes() + " bytes)";
  }

  /** A backup directory that must exist already: only {@code backup} creates one. */
  private static Path existing(String arg) {
    Path dir = Path.of(arg);
    if (!java.nio.file.Files.isDirectory(dir.resolve("meta"))) {
      throw new CairnTool.ToolFailure(dir + " is not a backup directory (it has no meta/ directory)");
    }
    return dir;
  }

  private static long number(String arg, String what) {
    try {
      long n = Long.parseLong(arg);
      if (n >= 0) {
        return n;
      }
    } catch (NumberFormatException e) {
      // the message below
    }
    throw new CairnTool.UsageException(what + " must be a number of 0 or more: '" + arg + "'");
  }
}
