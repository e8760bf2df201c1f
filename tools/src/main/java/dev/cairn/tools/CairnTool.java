package dev.cairn.tools;

import dev.cairn.Cairn;
import dev.cairn.CairnException;
import dev.cairn.CairnIterator;
import dev.cairn.Options;
import dev.cairn.ReadOptions;
import dev.cairn.VerifyProgress;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

/**
 * The {@code cairn} command-line tool: a quick look into a database and the checks an operator
 * needs. Commands that only read open the database read-only ({@link Cairn#openReadOnly}): they
 * write nothing and work beside a process that holds the database. Exit codes are in
 * {@link #USAGE}.
 */
public final class CairnTool {
  /** Success; for {@code get}, the key was found. */
  static final int OK = 0;
  /** {@code get}: the key is absent or deleted. */
  static final int NOT_FOUND = 1;
  /** The command line is wrong (the usage follows the message). */
  static final int USAGE_ERROR = 2;
  /** The database refused or failed: missing, corrupt, in use, changed underneath. */
  static final int FAILED = 3;

  private static final String USAGE = """
      usage: cairn <command> [args]
        demo [--dir DIR] [--records N] [--value-bytes B] [--background-threads T]
             [--compaction-style TABLE|BLOCK|BUFFER]
                                   load, read back under writes, print stats; DIR must be new or
                                   empty and is kept (without --dir, a temporary one is removed)
        create DIR                 make a new, empty database
        put DIR KEY VALUE          write one key
        delete DIR KEY             delete a key
        get DIR KEY                print a key's value (read-only)
        scan DIR [FROM [TO]] [--limit N] [--reverse]
                                   print keys in [FROM, TO) (no TO: to the end), at most the
                                   limit (default 100), then the count and whether more
                                   follow; --reverse from the largest key down (read-only)
        stats DIR                  print the statistics table (read-only)
        verify DIR                 check every table's checksums (read-only)
        repair DIR                 drop tables the manifest names that are missing or short (the open
                                   refuses such a database), print each with the key range lost
        checkpoint DIR COPY        make COPY (which must not exist) an openable copy of the database,
                                   its tables hard-linked where the file system allows
        backup DIR BACKUPS         add a backup of the database to the backup directory BACKUPS
                                   (created if missing), copying only tables no backup there holds
        list-backups BACKUPS       print each backup: id, time, sequence, files, bytes
        verify-backup BACKUPS [ID] check every file of backup ID (default: of every backup)
                                   against the checksums it recorded
        restore BACKUPS COPY [ID]  restore backup ID (default: the newest) into COPY, which must
                                   not exist
        purge-backups BACKUPS KEEP delete all but the newest KEEP backups
        dump-table FILE [--entries]
                                   print a table's footers, properties, index and blocks, and
                                   with --entries every entry (values cut at 64 bytes)
        dump-manifest DIR          print the version edits of the live manifest
      Keys and values are read and printed escaped: printable ASCII as is, any other byte as
      \\xNN (\\\\ is a backslash); with --hex, as hex digits both ways.
      Read-only commands take no lock and change nothing: they may run beside a process that
      holds the database, and see it as of their start.
      --ttl SECONDS (create, put, delete, get, scan, stats, verify, checkpoint, backup): a TTL
      database's, as Options.ttl: values older than SECONDS read as absent. A TTL database opens
      only with it, any other only without.
      exit codes: 0 done (get: found), 1 get: not found, 2 bad command line, 3 the database
      refused or failed (the message says why)
      """;
  /** After a command-line mistake other than the command itself: where the usage is. */
  static final String HELP_HINT = "run 'cairn help' for every command and its arguments";

  private CairnTool() {}

  public static void main(String[] args) {
    System.exit(run(args, System.out, System.err));
  }

  /** Runs one command; returns the exit code. */
  public static int run(String[] args, PrintStream out, PrintStream err) {
    if (args.length == 0 || args[0].equals("help") || args[0].equals("--help") || args[0].equals("-h")) {
      out.print(USAGE);
      return args.length == 0 ? USAGE_ERROR : OK;
    }
    try {
      if (args[0].equals("demo")) {
        Demo.run(DemoConfig.parse(Arrays.copyOfRange(args, 1, args.length)), out);
        return OK;
      }
      Command command = Command.named(args[0]);
      CommandLine line = CommandLine.parse(command, Arrays.copyOfRange(args, 1, args.length));
      String[] rest = line.positional();
      ByteText text = new ByteText(line.hex());
      return switch (command) {
        case CREATE -> {
          Path dir = Path.of(rest[0]);
          Cairn.open(dir, line.options().createIfMissing(true).errorIfExists(true).build()).close();
          out.println("created an empty database in " + dir);
          yield OK;
        }
        case PUT -> withDb(line, db -> db.put(text.parse(rest[1], "KEY"), text.parse(rest[2], "VALUE")));
        case DELETE -> withDb(line, db -> db.delete(text.parse(rest[1], "KEY")));
        case GET -> readOnly(line, db -> {
          byte[] v = db.get(text.parse(rest[1], "KEY"));
          if (v == null) {
            err.println("cairn: " + rest[1] + ": not found");
            return NOT_FOUND;
          }
          out.println(text.render(v));
          return OK;
        });
        case SCAN -> readOnly(line, db -> scan(db, rest, line.limit(), line.reverse(), text, out));
        case STATS -> readOnly(line, db -> {
          // Counters live in the process that opened the database; this view just opened it.
          out.println("# levels, files, space and memtables as the database is now; counters (bytes written,");
          out.println("# cache, latencies, compactions) are this tool's own read-only view's: an application's");
          out.println("# own counters are in its Cairn.stats()");
          out.print(db.stats());
          return OK;
        });
        case VERIFY -> readOnly(line, db -> {
          out.println("ok: " + db.verifyChecksums(new ProgressLine(err)) + " tables verified");
          return OK;
        });
        case REPAIR -> {
          out.print(Cairn.repair(databaseDir(rest[0]), Options.defaults()));
          yield OK;
        }
        case CHECKPOINT -> {
          Path copy = Path.of(rest[1]);
          withDb(line, db -> db.checkpoint(copy));
          out.println("checkpoint of " + rest[0] + " in " + copy);
          yield OK;
        }
        case BACKUP, LIST_BACKUPS, VERIFY_BACKUP, RESTORE, PURGE_BACKUPS -> BackupCommands.run(command, rest, line.options(), out);
        case DUMP_TABLE -> {
          Dumps.table(Path.of(rest[0]), line.entries(), out);
          yield OK;
        }
        case DUMP_MANIFEST -> {
          out.print(Dumps.manifest(databaseDir(rest[0])));
          yield OK;
        }
      };
    } catch (UsageException e) {
      err.println("cairn: " + e.getMessage());
      if (e.showUsage) {
        err.print(USAGE);
      } else {
        err.println(HELP_HINT);
      }
      return USAGE_ERROR;
    } catch (IllegalArgumentException e) {
      // The engine's refusal of an argument (an empty or oversized key): the message names it.
      err.println("cairn: " + e.getMessage());
      return USAGE_ERROR;
    } catch (CairnException | ToolFailure e) {
      err.println("cairn: " + e.getMessage());
      return FAILED;
    }
  }

  /** Prints up to {@code limit} entries, then their count and whether the range holds more. */
  /** The live entries in [FROM, TO), in key order or, with {@code --reverse}, from the largest key down. */
  private static int scan(Cairn db, String[] rest, int limit, boolean reverse, ByteText text, PrintStream out) {
    byte[] from = rest.length > 1 ? text.parse(rest[1], "FROM") : null;
    byte[] to = rest.length > 2 ? text.parse(rest[2], "TO") : null;
    int shown = 0;
    boolean more = false;
    try (CairnIterator it = db.iterator(ReadOptions.DEFAULT.withBounds(from, to))) {
      for (position(it, reverse); it.isValid(); step(it, reverse)) {
        if (shown == limit) {
          more = true;
          break;
        }
        out.println(text.render(it.key()) + "\t" + text.render(it.value()));
        shown++;
      }
    }
    out.println(more ? "(" + limit + " entries shown; more follow: raise --limit)" : "(" + shown + " entries)");
    return OK;
  }

  private static void position(CairnIterator it, boolean reverse) {
    if (reverse) {
      it.seekToLast();
    } else {
      it.seekToFirst();
    }
  }

  private static void step(CairnIterator it, boolean reverse) {
    if (reverse) {
      it.prev();
    } else {
      it.next();
    }
  }

  private interface DbWrite {
    void apply(Cairn db);
  }

  private interface DbRead {
    /** Returns the exit code. */
    int apply(Cairn db);
  }

  /** Opens the database for writing (it must exist) and applies {@code action}. */
  private static int withDb(CommandLine line, DbWrite action) {
    Options options = line.options().createIfMissing(false).build();
    try (Cairn db = Cairn.open(databaseDir(line.positional()[0]), options)) {
      action.apply(db);
    }
    return OK;
  }

  /** Opens a read-only view of the database and applies {@code action}. */
  private static int readOnly(CommandLine line, DbRead action) {
    try (Cairn db = Cairn.openReadOnly(databaseDir(line.positional()[0]), line.options().build())) {
      return action.apply(db);
    }
  }

  /**
   * {@code arg} as a database directory, refused when it names a file: the engine would say only
   * that the directory has no CURRENT file.
   */
  static Path databaseDir(String arg) {
    Path dir = Path.of(arg);
    if (Files.isRegularFile(dir)) {
      throw new ToolFailure(dir + " is a file, not a database directory");
    }
    return dir;
  }

  static int parseInt(String s, String name) {
    try {
      return Integer.parseInt(s);
    } catch (NumberFormatException e) {
      throw new UsageException(name + " must be an integer, got '" + s + "'");
    }
  }

  /**
   * A command's flags ({@code --hex}, {@code --limit N}, {@code --entries}, {@code --reverse},
   * {@code --ttl SECONDS}, anywhere) and its other arguments.
   */
  record CommandLine(String[] positional, boolean hex, int limit, boolean entries, boolean reverse, long ttlSeconds) {
    /** Options for the database the command opens: with {@code --ttl}, a TTL database's. */
    Options.Builder options() {
      return ttlSeconds > 0 ? Options.builder().ttl(java.time.Duration.ofSeconds(ttlSeconds)) : Options.builder();
    }

    /** The command line of {@code command}, refused when it takes another number of arguments or flag. */
    static CommandLine parse(Command command, String[] args) {
      List<String> positional = new java.util.ArrayList<>();
      boolean hex = false;
      boolean entries = false;
      boolean reverse = false;
      long ttlSeconds = 0;
      int limit = 100;
      for (int i = 0; i < args.length; i++) {
        switch (args[i]) {
          case "--hex" -> {
            command.checkFlag(Command.Flag.HEX);
            hex = true;
          }
          case "--entries" -> {
            command.checkFlag(Command.Flag.ENTRIES);
            entries = true;
          }
          case "--reverse" -> {
            command.checkFlag(Command.Flag.REVERSE);
            reverse = true;
          }
          case "--ttl" -> {
            command.checkFlag(Command.Flag.TTL);
            if (i + 1 >= args.length) {
              throw new UsageException("--ttl needs a number of seconds");
            }
            ttlSeconds = parseInt(args[++i], "--ttl");
            if (ttlSeconds < 1) {
              throw new UsageException("--ttl must be at least 1 second: " + ttlSeconds);
            }
          }
          case "--limit" -> {
            command.checkFlag(Command.Flag.LIMIT);
            if (i + 1 >= args.length) {
              throw new UsageException("--limit needs a value");
            }
            limit = parseInt(args[++i], "--limit");
            if (limit < 0) {
              throw new UsageException("--limit must not be negative: " + limit);
            }
          }
          default -> {
            if (args[i].startsWith("--")) {
              throw new UsageException("unknown flag '" + args[i] + "' (" + command.validFlags() + ")");
            }
            positional.add(args[i]);
          }
        }
      }
      command.checkArgumentCount(positional.size());
      return new CommandLine(positional.toArray(String[]::new), hex, limit, entries, reverse, ttlSeconds);
    }
  }

  /** Prints verify's progress to standard error, at most once a second, and at the end. */
  static final class ProgressLine implements VerifyProgress {
    private final PrintStream err;
    private long lastPrinted = System.nanoTime();

    ProgressLine(PrintStream err) {
      this.err = err;
    }

    @Override
    public void tableVerified(int done, int total, long bytes) {
      long now = System.nanoTime();
      if (now - lastPrinted >= 1_000_000_000L || (done == total && total >= 100)) {
        lastPrinted = now;
        err.printf("verified %,d of %,d tables (%,.1f MB)%n", done, total, bytes / 1e6);
      }
    }
  }

  /**
   * A command-line mistake, exit code 2: printed with the whole usage when the command itself is
   * wrong, else with where the usage is.
   */
  static final class UsageException extends RuntimeException {
    final boolean showUsage;

    UsageException(String message) {
      this(message, false);
    }

    UsageException(String message, boolean showUsage) {
      super(message);
      this.showUsage = showUsage;
    }
  }

  /** The tool could not do what it was asked for a reason outside the engine: exit code 3. */
  static final class ToolFailure extends RuntimeException {
    ToolFailure(String message) {
      super(message);
    }
  }
}
