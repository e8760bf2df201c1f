package dev.cairn.tools;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cairn.Cairn;
import dev.cairn.Options;
import dev.cairn.config.Compression;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The {@code cairn} tool as a script sees it: exit codes, what it prints, that read-only commands
 * change nothing and run beside an owner, that user mistakes get a message and no stack trace,
 * and that the demo deletes nothing it did not create.
 */
class CairnToolTest {
  @TempDir Path dir;

  /** One run: exit code, standard output, standard error. */
  record Run(int exit, String out, String err) {}

  private static Run run(String... args) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int exit = CairnTool.run(args, new PrintStream(out, true, StandardCharsets.UTF_8),
        new PrintStream(err, true, StandardCharsets.UTF_8));
    return new Run(exit, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
  }

  private Path database() {
    Path db = dir.resolve("db");
    try (Cairn c = Cairn.open(db, Options.defaults())) {
      for (int i = 0; i < 500; i++) {
        c.put(("key" + i).getBytes(StandardCharsets.UTF_8), ("value" + i).getBytes(StandardCharsets.UTF_8));
      }
      c.flush();
      c.put("unflushed".getBytes(StandardCharsets.UTF_8), "in-the-log".getBytes(StandardCharsets.UTF_8));
    }
    return db;
  }

  @Test
  void getExitsZeroWhenFoundAndOneWhenNot() {
    Path db = database();
    Run found = run("get", db.toString(), "key7");
    assertEquals(new Run(CairnTool.OK, "value7\n", ""), found);
    assertEquals("in-the-log\n", run("get", db.toString(), "unflushed").out());
    Run missing = run("get", db.toString(), "absent");
    assertEquals(CairnTool.NOT_FOUND, missing.exit());
    assertEquals("", missing.out());
    assertTrue(missing.err().contains("not found"), missing.err());
  }

  @Test
  void readOnlyCommandsChangeNothingOnDisk() throws IOException {
    Path db = database();
    Map<String, Long> before = fileSizes(db);
    assertEquals(CairnTool.OK, run("get", db.toString(), "key1").exit());
    Run scan = run("scan", db.toString(), "key1", "key2", "--limit", "5");
    assertEquals(CairnTool.OK, scan.exit());
    assertTrue(scan.out().startsWith("key1\tvalue1\nkey10\tvalue10\n") && scan.out().endsWith("(5 entries shown; more follow: raise --limit)\n"), scan.out());
    assertEquals(CairnTool.OK, run("stats", db.toString()).exit());
    Run verify = run("verify", db.toString());
    assertEquals(CairnTool.OK, verify.exit(), verify.err());
    assertTrue(verify.out().startsWith("ok: "), verify.out());
    assertEquals(before, fileSizes(db), "get, scan, stats and verify open read-only");
  }

  @Test
  void checkpointMakesACopyThatOpensAndRefusesAnExistingTarget() throws IOException {
    Path db = database();
    Path copy = dir.resolve("copies").resolve("first");
    Run made = run("checkpoint", db.toString(), copy.toString());
    assertEquals(new Run(CairnTool.OK, "checkpoint of " + db + " in " + copy + "\n", ""), made);
    assertEquals(new Run(CairnTool.OK, "in-the-log\n", ""), run("get", copy.toString(), "unflushed"));
    assertEquals(new Run(CairnTool.OK, "value499\n", ""), run("get", copy.toString(), "key499"));
    Run again = run("checkpoint", db.toString(), copy.toString());
    assertEquals(CairnTool.FAILED, again.exit());
    assertTrue(again.err().contains("already exists") && !again.err().contains("\tat "), again.err());
    Run missingCopy = run("checkpoint", db.toString());
    assertEquals(CairnTool.USAGE_ERROR, missingCopy.exit());
    assertTrue(missingCopy.err().contains("checkpoint takes DIR COPY"), missingCopy.err());
  }

  @Test
  void backupsAreTakenListedVerifiedRestoredAndPurged() throws IOException {
    Path db = database();
    String backups = dir.resolve("backups").toString();
    Run first = run("backup", db.toString(), backups);
    assertEquals(CairnTool.OK, first.exit(), first.err());
    assertTrue(first.out().startsWith("backup 1 ("), first.out());
    try (Cairn c = Cairn.open(db, Options.defaults())) {
      c.put("later".getBytes(StandardCharsets.UTF_8), "second".getBytes(StandardCharsets.UTF_8));
    }
    assertTrue(run("backup", db.toString(), backups).out().startsWith("backup 2 ("));
    Run list = run("list-backups", backups);
    assertEquals(3, list.out().lines().count(), list.out());
    assertTrue(list.out().lines().skip(1).allMatch(l -> l.matches("\\d+\t\\S+Z\t\\d+\t\\d+\t\\d+")), list.out());
    Run verify = run("verify-backup", backups);
    assertEquals(CairnTool.OK, verify.exit(), verify.err());
    assertEquals(2, verify.out().lines().filter(l -> l.startsWith("ok: backup ")).count(), verify.out());

    Path atFirst = dir.resolve("at-first");
    assertEquals(CairnTool.OK, run("restore", backups, atFirst.toString(), "1").exit());
    assertEquals(CairnTool.NOT_FOUND, run("get", atFirst.toString(), "later").exit());
    assertEquals("in-the-log\n", run("get", atFirst.toString(), "unflushed").out());
    Path newest = dir.resolve("newest");
    assertTrue(run("restore", backups, newest.toString()).out().startsWith("restored backup 2 ("));
    assertEquals("second\n", run("get", newest.toString(), "later").out());

    assertEquals("deleted 1 backup(s): [1]; 1 left\n", run("purge-backups", backups, "1").out());
    Run badKeep = run("purge-backups", backups, "-1");
    assertEquals(CairnTool.USAGE_ERROR, badKeep.exit());
    assertTrue(badKeep.err().contains("KEEP must be a number"), badKeep.err());
    Run notBackups = run("list-backups", db.toString());
    assertEquals(CairnTool.FAILED, notBackups.exit());
    assertTrue(notBackups.err().contains("not a backup directory"), notBackups.err());
    Run missing = run("verify-backup", backups, "1");
    assertEquals(CairnTool.USAGE_ERROR, missing.exit());
    assertTrue(missing.err().contains("no backup 1"), missing.err());
  }

  @Test
  void readOnlyCommandsRunBesideAnOwnerThatHoldsTheLock() {
    Path db = database();
    try (Cairn owner = Cairn.open(db, Options.defaults())) {
      owner.put("fresh".getBytes(StandardCharsets.UTF_8), "from-the-owner".getBytes(StandardCharsets.UTF_8));
      assertEquals(new Run(CairnTool.OK, "value3\n", ""), run("get", db.toString(), "key3"));
      assertEquals(CairnTool.OK, run("verify", db.toString()).exit());
      // A writing command cannot: the owner holds the LOCK, and the message says so.
      Run put = run("put", db.toString(), "k", "v");
      assertEquals(CairnTool.FAILED, put.exit());
      assertTrue(put.err().contains("in use"), put.err());
    }
  }

  @Test
  void userMistakesGetAMessageAndNoStackTrace() throws IOException {
    Path db = database();
    Run emptyKey = run("get", db.toString(), "");
    assertEquals(CairnTool.USAGE_ERROR, emptyKey.exit());
    assertTrue(emptyKey.err().contains("key must not be empty"), emptyKey.err());
    Run noDb = run("get", dir.resolve("nowhere").toString(), "k");
    assertEquals(CairnTool.FAILED, noDb.exit());
    assertTrue(noDb.err().contains("does not exist"), noDb.err());
    assertFalse(Files.exists(dir.resolve("nowhere")), "a read-only command creates nothing");
    Path notATable = dir.resolve("notes.txt");
    Files.writeString(notATable, "not a table at all");
    Run dump = run("dump-table", notATable.toString());
    assertEquals(CairnTool.FAILED, dump.exit(), dump.err());
    assertTrue(dump.err().startsWith("cairn: ") && dump.err().contains(notATable.toString()), dump.err());
    Path manifest;
    try (Stream<Path> s = Files.list(db)) {
      manifest = s.filter(p -> p.getFileName().toString().startsWith("MANIFEST-")).findFirst().orElseThrow();
    }
    Run dumpManifestAsTable = run("dump-table", manifest.toString());
    assertEquals(CairnTool.FAILED, dumpManifestAsTable.exit(), dumpManifestAsTable.err());
    Run unknown = run("frobnicate");
    assertEquals(CairnTool.USAGE_ERROR, unknown.exit());
    for (Run r : new Run[] {emptyKey, noDb, dump, dumpManifestAsTable, unknown}) {
      assertFalse(r.err().contains("\tat "), "no stack trace: " + r.err());
      assertEquals(1, r.err().lines().filter(l -> l.startsWith("cairn: ")).count(), "one message: " + r.err());
    }
  }

  @Test
  void demoRefusesANonEmptyDirectoryAndDeletesNothing() throws IOException {
    Path db = database();
    Map<String, Long> before = fileSizes(db);
    Run demo = run("demo", "--dir", db.toString(), "--records", "100");
    assertEquals(CairnTool.USAGE_ERROR, demo.exit());
    assertTrue(demo.err().contains("not empty"), demo.err());
    assertEquals(before, fileSizes(db), "the demo left the existing database alone");
    assertEquals(new Run(CairnTool.OK, "value9\n", ""), run("get", db.toString(), "key9"));
  }

  @Test
  void demoKeepsTheDirectoryItWasGiven() {
    Path target = dir.resolve("demo");
    Run demo = run("demo", "--dir", target.toString(), "--records", "2000", "--value-bytes", "64");
    assertEquals(CairnTool.OK, demo.exit(), demo.err());
    assertTrue(demo.out().contains("read back 2,000 of 2,000 keys") && demo.out().contains("kept in " + target),
        demo.out());
    assertTrue(Files.exists(target.resolve("CURRENT")));
    assertEquals(CairnTool.OK, run("verify", target.toString()).exit());
  }

  @Test
  void binaryKeysAndValuesRoundTripEscapedAndInHex() {
    Path db = database();
    assertEquals(CairnTool.OK, run("put", db.toString(), "bin\\x00\\xff\\\\", "v\\x01").exit());
    assertEquals(new Run(CairnTool.OK, "v\\x01\n", ""), run("get", db.toString(), "bin\\x00\\xff\\x5c"));
    assertEquals(new Run(CairnTool.OK, "7601\n", ""), run("get", "--hex", db.toString(), "62696e00ff5c"));
    Run scan = run("scan", db.toString(), "bin", "--limit", "1");
    assertEquals("bin\\x00\\xff\\x5c\tv\\x01\n(1 entries shown; more follow: raise --limit)\n", scan.out());
    Run badHex = run("get", "--hex", db.toString(), "6g");
    assertEquals(CairnTool.USAGE_ERROR, badHex.exit());
    assertTrue(badHex.err().contains("not hex"), badHex.err());
    Run badEscape = run("get", db.toString(), "a\\q");
    assertEquals(CairnTool.USAGE_ERROR, badEscape.exit());
  }

  @Test
  void scanTakesALimitWithAnOpenUpperBound() {
    Path db = database();
    Run scan = run("scan", db.toString(), "key8", "--limit", "3");
    assertEquals(CairnTool.OK, scan.exit(), scan.err());
    assertEquals("key8\tvalue8\nkey80\tvalue80\nkey81\tvalue81\n(3 entries shown; more follow: raise --limit)\n",
        scan.out());
    Run toTheEnd = run("scan", db.toString(), "key98", "--limit", "3");
    assertEquals("key98\tvalue98\nkey99\tvalue99\nunflushed\tin-the-log\n(3 entries)\n", toTheEnd.out(),
        "a range that ends at the limit has nothing more to say");
    Run all = run("scan", db.toString(), "--limit", "1000");
    assertTrue(all.out().endsWith("(501 entries)\n"), "500 keys and the unflushed one: " + all.out());
    assertEquals(CairnTool.USAGE_ERROR, run("scan", db.toString(), "a", "b", "5").exit(), "the limit is a flag");
  }

  @Test
  void aTtlDatabaseIsCreatedReadAndWrittenWithItsTtlAndRefusedWithout() {
    Path db = dir.resolve("ttl");
    assertEquals(CairnTool.OK, run("create", db.toString(), "--ttl", "3600").exit());
    assertEquals(CairnTool.OK, run("put", db.toString(), "k", "v", "--ttl", "3600").exit());
    Run get = run("get", db.toString(), "k", "--ttl", "3600");
    assertEquals("v\n", get.out(), get.err());
    Run without = run("get", db.toString(), "k");
    assertEquals(CairnTool.FAILED, without.exit());
    assertTrue(without.err().contains("created with a TTL"), without.err());
    assertEquals(CairnTool.USAGE_ERROR, run("get", db.toString(), "k", "--ttl", "0").exit());
    assertEquals(CairnTool.USAGE_ERROR, run("dump-manifest", db.toString(), "--ttl", "5").exit(), "not a flag of it");
  }

  @Test
  void scanReverseStartsAtTheLargestKeyBelowTo() {
    Path db = database();
    Run last = run("scan", db.toString(), "--reverse", "--limit", "2");
    assertEquals(CairnTool.OK, last.exit(), last.err());
    assertEquals("unflushed\tin-the-log\nkey99\tvalue99\n(2 entries shown; more follow: raise --limit)\n", last.out());
    Run range = run("scan", db.toString(), "key80", "key82", "--reverse");
    assertEquals("key81\tvalue81\nkey80\tvalue80\n(2 entries)\n", range.out(), "[FROM, TO) backward");
    assertEquals(CairnTool.USAGE_ERROR, run("get", db.toString(), "key1", "--reverse").exit(), "only scan takes it");
  }

  @Test
  void aCommandLineACommandWouldMisreadIsRefusedAndChangesNothing() {
    Path db = database();
    Run split = run("put", db.toString(), "k", "hello", "world");
    assertEquals(CairnTool.USAGE_ERROR, split.exit());
    assertTrue(split.err().contains("put takes DIR KEY VALUE: got 4 arguments (quote"), split.err());
    assertEquals(CairnTool.NOT_FOUND, run("get", db.toString(), "k").exit(), "nothing was written");
    Run extra = run("get", db.toString(), "key1", "key2");
    assertEquals(CairnTool.USAGE_ERROR, extra.exit());
    assertTrue(extra.err().contains("get takes DIR KEY: got 3 arguments"), extra.err());
    Run wrongFlag = run("get", db.toString(), "key1", "--entries");
    assertEquals(CairnTool.USAGE_ERROR, wrongFlag.exit());
    assertTrue(wrongFlag.err().contains("get does not take --entries (get's flags: --hex, --ttl SECONDS)"), wrongFlag.err());
    Run noFlags = run("repair", db.toString(), "--hex");
    assertTrue(noFlags.err().contains("repair takes no flags"), noFlags.err());
    for (Run r : new Run[] {split, extra, wrongFlag, noFlags}) {
      List<String> lines = r.err().lines().toList();
      assertEquals(2, lines.size(), "the message and where the usage is, not the whole usage: " + r.err());
      assertTrue(lines.get(0).startsWith("cairn: "), r.err());
      assertEquals(CairnTool.HELP_HINT, lines.get(1));
    }
    Run unknown = run("frobnicate");
    assertTrue(unknown.err().contains("usage: cairn"), "an unknown command shows every command: " + unknown.err());
    Run h = run("-h");
    assertEquals(CairnTool.OK, h.exit());
    assertTrue(h.out().contains("usage: cairn"), h.out());
  }

  @Test
  void createMakesAnEmptyDatabaseOnceAndAFileIsNoDatabase() throws IOException {
    Path db = dir.resolve("fresh");
    Run create = run("create", db.toString());
    assertEquals(new Run(CairnTool.OK, "created an empty database in " + db + "\n", ""), create);
    assertEquals(CairnTool.OK, run("put", db.toString(), "k", "v").exit());
    assertEquals(new Run(CairnTool.OK, "v\n", ""), run("get", db.toString(), "k"));
    Run again = run("create", db.toString());
    assertEquals(CairnTool.FAILED, again.exit(), "an existing database is not made again");
    assertEquals(new Run(CairnTool.OK, "v\n", ""), run("get", db.toString(), "k"));
    Path file = dir.resolve("plain.txt");
    Files.writeString(file, "text");
    for (String command : new String[] {"get", "put", "scan", "verify", "dump-manifest"}) {
      String[] args = switch (command) {
        case "get" -> new String[] {command, file.toString(), "k"};
        case "put" -> new String[] {command, file.toString(), "k", "v"};
        default -> new String[] {command, file.toString()};
      };
      Run r = run(args);
      assertEquals(CairnTool.FAILED, r.exit(), command + ": " + r.err());
      assertEquals("cairn: " + file + " is a file, not a database directory\n", r.err(), command);
    }
    assertEquals("text", Files.readString(file), "the file is left as it was");
  }

  @Test
  void fileErrorsAreWordsNotExceptionNames() {
    Path missing = dir.resolve("000042.sst");
    Run table = run("dump-table", missing.toString());
    assertEquals(new Run(CairnTool.FAILED, "", "cairn: reading table " + missing + ": " + missing + " does not exist\n"),
        table);
    Run manifest = run("dump-manifest", dir.toString());
    assertEquals(CairnTool.FAILED, manifest.exit());
    assertTrue(manifest.err().contains(dir.resolve("CURRENT") + " does not exist"), manifest.err());
    for (Run r : new Run[] {table, manifest}) {
      assertFalse(r.err().contains("Exception") || r.err().contains("java."), r.err());
    }
  }

  @Test
  void dumpManifestPrintsOneChangePerLine() {
    Path db = database();
    Run dump = run("dump-manifest", db.toString());
    assertEquals(CairnTool.OK, dump.exit(), dump.err());
    assertTrue(dump.out().contains("edit at offset 0\n  formatVersion=") && dump.out().contains("\n  add L0 #"),
        dump.out());
    assertTrue(dump.out().lines().allMatch(l -> l.length() < 300), "no edit on one long line: " + dump.out());
  }

  @Test
  void dumpTablePrintsEntriesWhenAsked() throws IOException {
    Path db = database();
    Path table;
    try (Stream<Path> s = Files.list(db)) {
      table = s.filter(p -> p.getFileName().toString().endsWith(".sst")).findFirst().orElseThrow();
    }
    Run summary = run("dump-table", table.toString());
    assertEquals(CairnTool.OK, summary.exit(), summary.err());
    assertTrue(summary.out().contains("index: ") && !summary.out().contains("=> value7\n"), summary.out());
    Run entries = run("dump-table", table.toString(), "--entries");
    assertEquals(CairnTool.OK, entries.exit(), entries.err());
    assertTrue(entries.out().contains("=> value7\n") && entries.out().contains("key7"), entries.out());
  }

  /** A table written with a codec: each block says how it is stored, the table its totals, and it verifies. */
  @Test
  void dumpTableSaysHowEachBlockIsStoredAndVerifyReadsCompressedTables() throws IOException {
    Path db = dir.resolve("compressed");
    try (Cairn c = Cairn.open(db, Options.builder().compression(Compression.zstd()).build())) {
      for (int i = 0; i < 500; i++) {
        c.put(("key" + i).getBytes(StandardCharsets.UTF_8), ("value" + i).repeat(20).getBytes(StandardCharsets.UTF_8));
      }
      c.flush();
    }
    Path table;
    try (Stream<Path> s = Files.list(db)) {
      table = s.filter(p -> p.getFileName().toString().endsWith(".sst")).findFirst().orElseThrow();
    }
    Run dump = run("dump-table", table.toString());
    assertEquals(CairnTool.OK, dump.exit(), dump.err());
    assertTrue(dump.out().contains(": version 2,"), dump.out());
    assertTrue(dump.out().contains(", zstd "), "a block stored as zstd: " + dump.out());
    assertTrue(dump.out().lines().anyMatch(l -> l.startsWith("  zstd ") && l.contains(" blocks, ")), dump.out());
    assertTrue(dump.out().lines().anyMatch(l -> l.startsWith("  table ") && l.contains(" raw (0.")), dump.out());
    Run verify = run("verify", db.toString());
    assertEquals(CairnTool.OK, verify.exit(), verify.err());
    assertEquals(new Run(CairnTool.OK, ("value42").repeat(20) + "\n", ""), run("get", db.toString(), "key42"));
  }

  @Test
  void helpListsEveryCommandAndTheExitCodes() {
    Run help = run("help");
    assertEquals(CairnTool.OK, help.exit());
    for (String command : new String[] {"demo", "create", "put", "delete", "get", "scan", "stats", "verify", "dump-table",
        "dump-manifest", "repair", "exit codes", "TABLE|BLOCK|BUFFER"}) {
      assertTrue(help.out().contains(command), command + " in: " + help.out());
    }
  }

  private static Map<String, Long> fileSizes(Path dir) throws IOException {
    Map<String, Long> out = new TreeMap<>();
    try (Stream<Path> s = Files.list(dir)) {
      for (Path p : s.toList()) {
        out.put(p.getFileName().toString(), Files.size(p));
      }
    }
    return out;
  }
}
