package dev.cairn.hbase;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.util.Bytes;

/** Row keys and values of the test tables. */
final class Rows {
  static final byte[] COLUMN = Bytes.toBytes("v");

  private Rows() {}

  static byte[] key(int row) {
    return Bytes.toBytes(String.format("row%07d", row));
  }

  /** A value of about {@code size} bytes that names its row and round. */
  static byte[] value(int row, int round, int size) {
    StringBuilder s = new StringBuilder(size).append(row).append('/').append(round).append(':');
    while (s.length() < size) {
      s.append((char) ('a' + (s.length() * 31 + row + round) % 26));
    }
    return Bytes.toBytes(s.toString());
  }

  /** Writes rows [from, to) of round {@code round}, 1 KiB each. */
  static void write(Table table, int from, int to, int round) throws IOException {
    List<Put> batch = new ArrayList<>();
    for (int row = from; row < to; row++) {
      batch.add(new Put(key(row)).addColumn(MiniCluster.FAMILY, COLUMN, value(row, round, 1024)));
      if (batch.size() == 500) {
        table.put(batch);
        batch.clear();
      }
    }
    table.put(batch);
  }
}
