package dev.cairn.bench.engine.hbase;

import java.util.Map;

/**
 * What the HBase engines ask of HBase's client, in JDK types only: the bridge between the runner
 * and {@code hbase-client}, which the runner's jar does not carry. Its one implementation, {@code
 * dev.cairn.bench.engine.hbase.client.HBaseClientImpl}, is compiled against hbase-client and
 * loaded by {@link HBaseClientLoader} beside hbase-lib's jars; this interface (and its nested
 * record) is the only type both sides share, so nothing of HBase's or of its libraries' meets the
 * runner's own classes (its Guava, Netty, Caffeine). Thread-safe after {@link #connect}.
 */
public interface HBaseClient extends AutoCloseable {
  /**
   * The table: one column family, one qualifier per row.
   *
   * @param table table name (namespace {@code default})
   * @param family the column family
   * @param blockBytes the family's {@code BLOCKSIZE}
   * @param memstoreFlushBytes the table's {@code MEMSTORE_FLUSHSIZE}
   * @param compression the family's {@code COMPRESSION}, as HBase names its algorithm ({@code NONE}, {@code LZ4}, ...)
   * @param configuration the table's {@code CONFIGURATION} (store settings; what tells the engines apart)
   */
  record TableSpec(String table, String family, int blockBytes, long memstoreFlushBytes, String compression,
      Map<String, String> configuration) {}

  /** Opens a connection with these client settings (the ZooKeeper quorum and port, retries). */
  void connect(Map<String, String> settings);

  /**
   * Creates the table (single region, never split; Bloom filter ROW, the spec's compression, one version)
   * and waits until it is available; what HBase made of it goes to {@link #describeTable}.
   */
  void createTable(TableSpec spec);

  /** Uses an existing table (one written before a restart) instead of creating one. */
  void useTable(String table, String family);

  /**
   * Sets ({@code value} non-null) or removes one key of the table's {@code CONFIGURATION} and
   * waits until its regions have reopened with it: how an operator switches a table's compaction
   * policy (hbase shell {@code alter}, or {@code table_conf_unset}). Throws {@link
   * IllegalStateException} if they have not reopened within two minutes.
   */
  void setTableConfiguration(String key, String value);

  /** The table's descriptor as HBase prints it (what the region server applies). */
  String describeTable();

  void put(byte[] row, byte[] value);

  /** The row's value, or null when absent. */
  byte[] get(byte[] row);

  /** Reads up to {@code limit} rows from the first row {@code >= from}; returns how many. */
  int scan(byte[] from, int limit);

  /**
   * Flushes every region of the table through the region server's flush RPC ({@code
   * Admin.flushRegion}), which, unlike 2.6's table-flush procedure, requests a compaction when the
   * store needs one; returns the number of regions flushed.
   */
  int flushRegions();

  /** Closes the connection; idempotent. */
  @Override
  void close();
}
