package dev.cairn.e2e;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cairn.BackupInfo;
import dev.cairn.Backups;
import dev.cairn.Cairn;
import dev.cairn.testkit.LongTests;
import dev.cairn.testkit.Seeds;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A backup interrupted at any point leaves the earlier backups whole: {@link BackupKillChild}
 * writes and backs up in a loop and is SIGKILLed during a backup: every other cycle as soon as a
 * partial file of the backup appears (a table half copied, the record before its rename), the
 * others at a random moment of it (mostly while it reads the tables to checksum them). The test
 * prints how many kills left a backup half written. After each kill, every backup the child acknowledged is
 * listed, every listed backup verifies, and the newest acknowledged one restores to a database
 * holding every round up to its own; the leftovers go at the next backup.
 *
 * <p>Replay with {@code -Dcairn.seed=<seed>}.
 */
class BackupKillTest {
  @Test
  void killsDuringBackupsLeaveEveryFinishedBackupWhole(@TempDir Path tmp) throws Exception {
    long seed = Seeds.seed();
    Random rnd = new Random(seed);
    Path db = tmp.resolve("db");
    Path backupDir = tmp.resolve("backups");
    int cycles = LongTests.enabled() ? 30 : 6;
    Map<Long, Long> acknowledged = new TreeMap<>(); // backup id -> the round it holds
    long nextRound = 0;
    int midWrite = 0; // kills that left a backup's files half written
    for (int cycle = 0; cycle < cycles; cycle++) {
      String where = " after the kill of cycle " + cycle + " (seed " + seed + ")";
      // The next child writes the interrupted round again: its unsynced writes may be lost.
      nextRound = runAndKill(db, backupDir, nextRound, rnd, acknowledged, cycle % 2 == 1);
      if (leftovers(backupDir) > 0) {
        midWrite++;
      }
      try (Backups backups = Backups.open(backupDir)) {
        List<Long> listed = backups.list().stream().map(BackupInfo::id).toList();
        assertTrue(listed.containsAll(acknowledged.keySet()), "acknowledged " + acknowledged.keySet()
            + ", listed " + listed + where);
        for (long id : listed) {
          backups.verify(id);
        }
        if (!acknowledged.isEmpty()) {
          long newest = ((TreeMap<Long, Long>) acknowledged).lastKey();
          Path restored = tmp.resolve("restored-" + cycle);
          backups.restore(newest, restored);
          try (Cairn copy = Cairn.open(restored, KillChild.options(BackupKillChild.COMBO))) {
            long round = acknowledged.get(newest);
            for (long r = 0; r <= round; r++) {
              for (int i : new int[] {0, BackupKillChild.KEYS_PER_ROUND / 2, BackupKillChild.KEYS_PER_ROUND - 1}) {
                assertArrayEquals(BackupKillChild.value(r, i), copy.get(BackupKillChild.key(r, i)),
                    "backup " + newest + " (round " + round + "), key " + i + " of round " + r + where);
              }
            }
          }
        }
      }
    }
    System.out.println("backup kill test: " + cycles + " kills, " + midWrite + " with a backup's files half written, "
        + acknowledged.size() + " backups acknowledged (seed " + seed + ")");
    assertTrue(acknowledged.size() >= cycles, "backups finished between the kills: " + acknowledged + " (seed " + seed + ")");
    try (Backups backups = Backups.open(backupDir)) {
      backups.purgeOldBackups(1);
      assertEquals(1, backups.list().size());
    }
    try (Stream<Path> files = Files.walk(backupDir)) {
      assertEquals(List.of(), files.map(Path::toString).filter(n -> n.endsWith(".partial")).toList(),
          "a purge deletes what interrupted backups left");
    }
  }

  /** Files of unfinished backups: partial copies and records, private directories without a record. */
  private static long leftovers(Path backupDir) throws IOException {
    try (Stream<Path> files = Files.walk(backupDir)) {
      long partial = files.filter(p -> p.toString().endsWith(".partial")).count();
      try (Stream<Path> own = Files.list(backupDir.resolve("private"))) {
        return partial + own.filter(d -> !Files.exists(backupDir.resolve("meta").resolve(d.getFileName()))).count();
      }
    }
  }

  private static boolean hasPartialFile(Path backupDir) throws IOException {
    for (String sub : List.of("shared", "meta")) {
      try (Stream<Path> files = Files.list(backupDir.resolve(sub))) {
        if (files.anyMatch(p -> p.toString().endsWith(".partial"))) {
          return true;
        }
      }
    }
    return false;
  }

  /**
   * Runs the child from {@code start} until it has finished one to three backups, then kills it
   * during the next: as soon as a partial file of it appears ({@code killAtFirstPartialFile}: a
   * table half copied, or the record before its rename), else at a moment drawn up to the longest
   * backup so far (most of a backup reads the tables to checksum them, writing nothing); returns the last
   * round it began.
   */
  private static long runAndKill(Path db, Path backupDir, long start, Random rnd, Map<Long, Long> acknowledged,
      boolean killAtFirstPartialFile) throws IOException, InterruptedException {
    List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-Xmx256m", "-cp", System.getProperty("java.class.path"), BackupKillChild.class.getName(),
        db.toString(), backupDir.toString(), Long.toString(start)));
    Process p = new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.INHERIT).start();
    long lastRound = start;
    try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.US_ASCII))) {
      String line = r.readLine();
      assertEquals("open", line, "the child did not open the database and the backup directory");
      int backupsBeforeKill = 1 + rnd.nextInt(3);
      long longestNanos = 0;
      long began = 0;
      while ((line = r.readLine()) != null) {
        String[] w = line.split(" ");
        if (w[0].equals("backing-up")) {
          lastRound = Long.parseLong(w[1]);
          began = System.nanoTime();
          if (backupsBeforeKill-- == 0) {
            if (killAtFirstPartialFile) {
              long deadline = began + 10 * Math.max(longestNanos, 100_000_000L);
              while (!hasPartialFile(backupDir) && !r.ready() && System.nanoTime() < deadline) {
                Thread.onSpinWait();
              }
            } else {
              long killAfterNanos = (long) (rnd.nextDouble() * longestNanos);
              while (System.nanoTime() - began < killAfterNanos) {
                Thread.onSpinWait();
              }
            }
            break;
          }
        } else if (w[0].equals("backup")) {
          acknowledged.put(Long.parseLong(w[1]), Long.parseLong(w[2]));
          longestNanos = Math.max(longestNanos, System.nanoTime() - began);
        }
      }
      new ProcessBuilder("kill", "-KILL", Long.toString(p.pid())).start().waitFor();
      p.waitFor();
      while ((line = r.readLine()) != null) { // acknowledgements still in the pipe
        String[] w = line.split(" ");
        if (w[0].equals("backup")) {
          acknowledged.put(Long.parseLong(w[1]), Long.parseLong(w[2]));
        }
      }
    }
    return lastRound;
  }
}
