package dev.cairn.tools;

import dev.cairn.Cairn;
import dev.cairn.CairnException;
import dev.cairn.Entry;
import dev.cairn.Options;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

/**
 * The {@code cairn} command-line tool: a quick look into a database and the checks an operator
 * needs. Exit code 0 on success, 1 on a failure of the database, 2 on a usage error.
 */
public final class CairnTool {
  private static final String USAGE = """
      usage: cairn <command> [args]
        demo [--dir DIR] [--records N] [--value-bytes B] [--background-threads T]
             [--compaction-style TABLE|BUFFER]       load, read back under writes, print stats
        put DIR KEY VALUE                                  write one key (UTF-8)
        get DIR KEY                                        print a key's value
        delete DIR KEY                                     delete a key
        scan DIR [FROM [TO [LIMIT]]]                       print keys in [FROM, TO), default limit 100
        stats DIR                                          print the statistics table
        verify DIR                                         check every table's checksums
        dump-table FILE                                    print a table's footer, properties, index, blocks
        dump-manifest DIR                                  print the version edits of the live manifest
      """;

  private CairnTool() {}

  public static void main(String[] args) {
    System.exit(run(args, System.out, System.err));
  }

  /** Runs one command; returns the exit code. */
  public static int run(String[] args, PrintStream out, PrintStream err) {
    if (args.length == 0 || args[0].equals("help") || args[0].equals("--help")) {
      out.print(USAGE);
      return args.length == 0 ? 2 : 0;
    }
    String[] rest = Arrays.copyOfRange(args, 1, args.length);
    try {
      switch (args[0]) {
        case "demo" -> Demo.run(DemoConfig.parse(rest), out);
        case "put" -> withDb(rest, 3, db -> db.put(utf8(rest[1]), utf8(rest[2])));
        case "get" -> withDb(rest, 2, db -> {
          byte[] v = db.get(utf8(rest[1]));
          out.println(v == null ? "(not found)" : new String(v, StandardCharsets.UTF_8));
        });
        case "delete" -> withDb(rest, 2, db -> db.delete(utf8(rest[1])));
        case "scan" -> withDb(rest, 1, db -> scan(db, rest, out));
        case "stats" -> withDb(rest, 1, db -> out.print(db.stats()));
        case "verify" -> withDb(rest, 1, db -> out.println("ok: " + db.verifyChecksums() + " tables verified"));
        case "dump-table" -> {
          requireArgs(rest, 1);
          out.print(Dumps.table(Path.of(rest[0])));
        }
        case "dump-manifest" -> {
          requireArgs(rest, 1);
          out.print(Dumps.manifest(Path.of(rest[0])));
        }
        default -> throw new UsageException("unknown command '" + args[0] + "'");
      }
      return 0;
    } catch (UsageException e) {
      err.println("cairn: " + e.getMessage());
      err.print(USAGE);
      return 2;
    } catch (CairnException e) {
      err.println("cairn: " + e.getMessage());
      return 1;
    }
  }

  private static void scan(Cairn db, String[] rest, PrintStream out) {
    byte[] from = rest.length > 1 ? utf8(rest[1]) : new byte[0];
    byte[] to = rest.length > 2 ? utf8(rest[2]) : null;
    int limit = rest.length > 3 ? parseInt(rest[3], "LIMIT") : 100;
    List<Entry> entries = db.scan(from, to, limit);
    for (Entry e : entries) {
      out.println(new String(e.key(), StandardCharsets.UTF_8) + "\t" + new String(e.value(), StandardCharsets.UTF_8));
    }
    out.println("(" + entries.size() + " entries)");
  }

  private interface DbAction {
    void apply(Cairn db);
  }

  private static void withDb(String[] rest, int required, DbAction action) {
    requireArgs(rest, required);
    Options options = Options.builder().createIfMissing(false).build();
    try (Cairn db = Cairn.open(Path.of(rest[0]), options)) {
      action.apply(db);
    }
  }

  static void requireArgs(String[] rest, int required) {
    if (rest.length < required) {
      throw new UsageException("expected " + required + " argument(s), got " + rest.length);
    }
  }

  static int parseInt(String s, String name) {
    try {
      return Integer.parseInt(s);
    } catch (NumberFormatException e) {
      throw new UsageException(name + " must be an integer, got '" + s + "'");
    }
  }

  private static byte[] utf8(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  /** A command-line mistake: printed with the usage, exit code 2. */
  static final class UsageException extends RuntimeException {
    UsageException(String message) {
      super(message);
    }
  }
}
