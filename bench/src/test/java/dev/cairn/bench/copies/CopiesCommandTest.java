package dev.cairn.bench.copies;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cairn.bench.BenchMain;
import dev.cairn.bench.report.JsonParser;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code copies} at tiny sizes (a few hundred KiB a database, seconds in all): report.md and
 * summary.json are written, hold every part's figures, and the figures are sane. No timing
 * assertions beyond "took some time".
 */
class CopiesCommandTest {
  private static final int DATABASES = 3;
  private static final long MANY_RECORDS = 500;

  @Test
  void writesEveryPartsFiguresAtTinySizes(@TempDir Path out) throws Exception {
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int code = BenchMain.execute(new String[] {"copies", "--records", "2000", "--value-bytes", "100",
        "--databases", Integer.toString(DATABASES), "--many-records", Long.toString(MANY_RECORDS), "--repeat", "1",
        "--out", out.toString()}, new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8),
        new PrintStream(err, true, StandardCharsets.UTF_8));
    assertEquals(BenchMain.EXIT_OK, code, "copies failed:\n" + err.toString(StandardCharsets.UTF_8));

    String report = Files.readString(out.resolve("report.md"));
    assertTrue(report.contains("java -jar cairn-bench.jar copies --records 2000"), "the command line heads the report");
    for (String part : List.of("## Checkpoints", "## Backups", "## Many databases", "| TABLE |", "| BLOCK |",
        "| BUFFER |", "| separate |", "| shared |", "processors (nproc)", "commit `")) {
      assertTrue(report.contains(part), "report.md lacks " + part + ":\n" + report);
    }
    assertFalse(Files.exists(out.resolve("data")), "the databases, checkpoints and backups are deleted at the end");

    Map<?, ?> summary = (Map<?, ?>) JsonParser.parse(Files.readString(out.resolve("summary.json")));
    assertTrue(((Map<?, ?>) summary.get("machine")).get("processors") instanceof Number);
    List<?> rounds = (List<?>) summary.get("rounds");
    assertEquals(1, rounds.size());
    Map<?, ?> round = (Map<?, ?>) rounds.get(0);

    List<?> styles = (List<?>) round.get("styles");
    assertEquals(List.of("TABLE", "BLOCK", "BUFFER"), styles.stream().map(s -> ((Map<?, ?>) s).get("style")).toList());
    for (Object o : styles) {
      Map<?, ?> style = (Map<?, ?>) o;
      Map<?, ?> checkpoint = (Map<?, ?>) style.get("checkpoint");
      positive(checkpoint, "seconds", "bytes", "tables", "database_table_bytes");
      double tables = number(checkpoint, "tables");
      assertEquals(tables, number(checkpoint, "tables_linked") + number(checkpoint, "tables_copied"), style.toString());
      // One local file system: every table is linked, none copied (no append runs once compactions settled).
      assertEquals(tables, number(checkpoint, "tables_linked"), style.toString());
      assertTrue(number(checkpoint, "bytes") >= number(checkpoint, "database_table_bytes"),
          "the checkpoint holds the database's tables and a manifest: " + checkpoint);

      Map<?, ?> backup = (Map<?, ?>) style.get("backup");
      positive(backup, "full_seconds", "full_bytes", "full_tables", "incremental_seconds", "incremental_bytes",
          "incremental_tables", "verify_seconds", "restore_seconds", "restored_bytes");
      assertEquals(number(checkpoint, "database_table_bytes"), number(backup, "full_bytes"),
          "a full backup copies every table: " + backup);
      assertTrue(number(backup, "incremental_bytes") < number(backup, "full_bytes"),
          "10% overwritten copies less than the whole: " + backup);
      assertTrue(number(backup, "restored_bytes") > number(backup, "full_bytes"),
          "the second backup holds the first's tables and the overwrite's: " + backup);
    }

    List<?> many = (List<?>) round.get("many_databases");
    assertEquals(List.of("separate", "shared"), many.stream().map(m -> ((Map<?, ?>) m).get("configuration")).toList());
    for (Object o : many) {
      Map<?, ?> m = (Map<?, ?>) o;
      positive(m, "puts_per_s", "load_seconds", "heap_peak_bytes", "heap_after_gc_bytes", "memtable_bytes",
          "held_peak_bytes", "threads_peak");
      assertEquals(DATABASES * MANY_RECORDS, number(m, "puts"), m.toString());
      assertTrue(number(m, "threads_peak") > number(m, "threads_before"),
          "the databases and writers add threads: " + m);
      assertTrue(number(m, "held_peak_bytes") >= number(m, "heap_peak_bytes"), m.toString());
    }
  }

  private static double number(Map<?, ?> m, String key) {
    Object v = m.get(key);
    assertTrue(v instanceof Number, key + " is not a number in " + m);
    return ((Number) v).doubleValue();
  }

  private static void positive(Map<?, ?> m, String... keys) {
    for (String k : keys) {
      assertTrue(number(m, k) > 0, k + " must be > 0 in " + m);
    }
  }
}
