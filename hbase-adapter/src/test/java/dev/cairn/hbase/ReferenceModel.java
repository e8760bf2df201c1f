package dev.cairn.hbase;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Random;
import java.util.TreeMap;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.client.Delete;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Row;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * What a table must hold after a sequence of random puts, overwrites, column deletes and row
 * deletes, kept beside the table by applying each mutation to both.
 *
 * <p>Every mutation carries its own timestamp from one increasing clock. HBase orders a put and a
 * delete of one cell by timestamp, not by arrival, and a delete masks every put at or below its
 * timestamp: with server-assigned timestamps, a put that follows a delete within the same
 * millisecond would be hidden, which is HBase's documented behaviour and not what this test is
 * about.
 */
final class ReferenceModel {
  private static final byte[][] QUALIFIERS = {Bytes.toBytes("a"), Bytes.toBytes("b")};

  private final NavigableMap<String, NavigableMap<String, String>> rows = new TreeMap<>();
  private final Random random;
  private final int keySpace;
  private final int valueBytes;
  private long clock = 1;
  private int round;

  ReferenceModel(long seed, int keySpace, int valueBytes) {
    this.random = new Random(seed);
    this.keySpace = keySpace;
    this.valueBytes = valueBytes;
  }

  /** Applies {@code count} random mutations to the table and the model. */
  void mutate(Table table, int count) throws IOException, InterruptedException {
    round++;
    List<Row> batch = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      int row = random.nextInt(keySpace);
      byte[] key = Rows.key(row);
      String rowName = Bytes.toString(key);
      long ts = clock++;
      int op = random.nextInt(100);
      if (op < 75) {
        byte[] q = QUALIFIERS[op < 60 ? 0 : 1];
        byte[] value = Rows.value(row, round, valueBytes);
        batch.add(new Put(key).addColumn(MiniCluster.FAMILY, q, ts, value));
        rows.computeIfAbsent(rowName, r -> new TreeMap<>()).put(Bytes.toString(q), Bytes.toString(value));
      } else if (op < 85) {
        batch.add(new Delete(key).addColumns(MiniCluster.FAMILY, QUALIFIERS[0], ts));
        NavigableMap<String, String> cells = rows.get(rowName);
        if (cells != null) {
          cells.remove(Bytes.toString(QUALIFIERS[0]));
          if (cells.isEmpty()) {
            rows.remove(rowName);
          }
        }
      } else {
        batch.add(new Delete(key, ts));
        rows.remove(rowName);
      }
      if (batch.size() == 500) {
        table.batch(batch, new Object[batch.size()]);
        batch.clear();
      }
    }
    table.batch(batch, new Object[batch.size()]);
  }

  /** Checks a full scan, a range scan and random gets (present and absent rows) against the model. */
  void verify(Table table, String when) throws IOException {
    assertEquals(rows, scan(table, new Scan()), "full scan " + when);
    int from = random.nextInt(keySpace);
    int to = Math.min(keySpace, from + 1 + random.nextInt(keySpace / 4));
    String start = Bytes.toString(Rows.key(from));
    String stop = Bytes.toString(Rows.key(to));
    assertEquals(rows.subMap(start, true, stop, false),
        scan(table, new Scan().withStartRow(Rows.key(from)).withStopRow(Rows.key(to))),
        "range scan [" + start + ", " + stop + ") " + when);
    for (int i = 0; i < 100; i++) {
      byte[] key = Rows.key(random.nextInt(keySpace));
      Result result = table.get(new Get(key));
      Map<String, String> expected = rows.get(Bytes.toString(key));
      assertEquals(expected == null ? null : expected, cells(result), "get " + Bytes.toString(key) + " " + when);
    }
  }

  int size() {
    return rows.size();
  }

  private static NavigableMap<String, NavigableMap<String, String>> scan(Table table, Scan scan) throws IOException {
    NavigableMap<String, NavigableMap<String, String>> seen = new TreeMap<>();
    try (ResultScanner scanner = table.getScanner(scan.setCaching(500))) {
      for (Result result : scanner) {
        seen.put(Bytes.toString(result.getRow()), cells(result));
      }
    }
    return seen;
  }

  /** The row's cells as qualifier -> value, or null for an empty result. */
  private static NavigableMap<String, String> cells(Result result) {
    if (result.isEmpty()) {
      return null;
    }
    NavigableMap<String, String> cells = new TreeMap<>();
    for (Cell cell : result.rawCells()) {
      cells.put(Bytes.toString(CellUtil.cloneQualifier(cell)), Bytes.toString(CellUtil.cloneValue(cell)));
    }
    return cells;
  }
}
