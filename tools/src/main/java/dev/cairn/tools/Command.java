package dev.cairn.tools;

import java.util.Arrays;
import java.util.EnumSet;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The tool's commands but {@code demo} (which parses its own flags): how many arguments each takes
 * and which flags, so that a command line a command would misread (an unquoted value split in two,
 * a flag another command takes) is refused rather than half obeyed.
 */
enum Command {
  CREATE("create", "DIR", 1, 1, EnumSet.of(Flag.TTL)),
  PUT("put", "DIR KEY VALUE", 3, 3, EnumSet.of(Flag.HEX, Flag.TTL)),
  DELETE("delete", "DIR KEY", 2, 2, EnumSet.of(Flag.HEX, Flag.TTL)),
  GET("get", "DIR KEY", 2, 2, EnumSet.of(Flag.HEX, Flag.TTL)),
  SCAN("scan", "DIR [FROM [TO]]", 1, 3, EnumSet.of(Flag.HEX, Flag.LIMIT, Flag.REVERSE, Flag.TTL)),
  STATS("stats", "DIR", 1, 1, EnumSet.of(Flag.TTL)),
  VERIFY("verify", "DIR", 1, 1, EnumSet.of(Flag.TTL)),
  REPAIR("repair", "DIR", 1, 1, EnumSet.noneOf(Flag.class)),
  CHECKPOINT("checkpoint", "DIR COPY", 2, 2, EnumSet.of(Flag.TTL)),
  BACKUP("backup", "DIR BACKUPS", 2, 2, EnumSet.of(Flag.TTL)),
  LIST_BACKUPS("list-backups", "BACKUPS", 1, 1, EnumSet.noneOf(Flag.class)),
  VERIFY_BACKUP("verify-backup", "BACKUPS [ID]", 1, 2, EnumSet.noneOf(Flag.class)),
  RESTORE("restore", "BACKUPS COPY [ID]", 2, 3, EnumSet.noneOf(Flag.class)),
  PURGE_BACKUPS("purge-backups", "BACKUPS KEEP", 2, 2, EnumSet.noneOf(Flag.class)),
  DUMP_TABLE("dump-table", "FILE", 1, 1, EnumSet.of(Flag.ENTRIES)),
  DUMP_MANIFEST("dump-manifest", "DIR", 1, 1, EnumSet.noneOf(Flag.class));

  /** The flags any command may take, where it allows them. */
  enum Flag {
    HEX("--hex", "--hex"),
    LIMIT("--limit", "--limit N"),
    REVERSE("--reverse", "--reverse"),
    TTL("--ttl", "--ttl SECONDS"),
    ENTRIES("--entries", "--entries");

    final String word;
    final String usage;

    Flag(String word, String usage) {
      this.word = word;
      this.usage = usage;
    }
  }

  final String word;
  final String arguments;
  final int minArgs;
  final int maxArgs;
  final Set<Flag> flags;

  Command(String word, String arguments, int minArgs, int maxArgs, Set<Flag> flags) {
    this.word = word;
    this.arguments = arguments;
    this.minArgs = minArgs;
    this.maxArgs = maxArgs;
    this.flags = flags;
  }

  /** The command named {@code word}, or a usage error that shows the whole usage. */
  static Command named(String word) {
    return Arrays.stream(values()).filter(c -> c.word.equals(word)).findFirst()
        .orElseThrow(() -> new CairnTool.UsageException("unknown command '" + word + "'", true));
  }

  /** Refuses {@code count} positional arguments when this command takes another number. */
  void checkArgumentCount(int count) {
    if (count < minArgs || count > maxArgs) {
      String hint = this == PUT && count > maxArgs ? " (quote a key or value that holds spaces)" : "";
      throw new CairnTool.UsageException(word + " takes " + arguments + ": got " + count + " argument"
          + (count == 1 ? "" : "s") + hint);
    }
  }

  /** Refuses {@code flag} when this command does not take it. */
  void checkFlag(Flag flag) {
    if (!flags.contains(flag)) {
      throw new CairnTool.UsageException(word + " does not take " + flag.word + " (" + validFlags() + ")");
    }
  }

  /** The flags this command takes, as a reader should type them. */
  String validFlags() {
    return flags.isEmpty() ? word + " takes no flags"
        : word + "'s flags: " + flags.stream().map(f -> f.usage).collect(Collectors.joining(", "));
  }
}
