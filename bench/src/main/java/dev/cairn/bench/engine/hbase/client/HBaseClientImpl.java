package dev.cairn.bench.engine.hbase.client;

import dev.cairn.bench.engine.hbase.HBaseClient;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.HBaseConfiguration;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.RegionInfo;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.io.compress.Compression;
import org.apache.hadoop.hbase.regionserver.BloomType;

/**
 * {@link HBaseClient} on hbase-client 2.6.1. Never loaded by the runner's own class loader (which
 * has no HBase): {@code HBaseClientLoader} defines it from the runner jar's bytes beside
 * hbase-lib's jars, so every HBase type it names resolves there.
 */
public final class HBaseClientImpl implements HBaseClient {
  private static final byte[] QUALIFIER = {'v'};
  private static final long REOPEN_DEADLINE_SECONDS = 120;
  /** hbase-server's, so named rather than referenced: the client side has no hbase-server. */
  private static final String DISABLED_SPLITS = "org.apache.hadoop.hbase.regionserver.DisabledRegionSplitPolicy";

  private Connection connection;
  private TableName tableName;
  private byte[] family;
  /** Tables are cheap but not meant to be shared between threads: one per runner thread. */
  private final ThreadLocal<Table> tables = new ThreadLocal<>();
  private final ConcurrentLinkedQueue<Table> opened = new ConcurrentLinkedQueue<>();

  public HBaseClientImpl() {}

  @Override
  public void connect(Map<String, String> settings) {
    connection = withOwnLoader(() -> {
      // Hadoop's Configuration finds hbase-default.xml and loads classes by name through its
      // class loader, which defaults to the thread's context loader: the runner's, without HBase.
      Configuration conf = HBaseConfiguration.create();
      conf.setClassLoader(HBaseClientImpl.class.getClassLoader());
      settings.forEach(conf::set);
      try {
        return ConnectionFactory.createConnection(conf);
      } catch (IOException e) {
        throw new UncheckedIOException("no connection to HBase with " + settings, e);
      }
    });
  }

  @Override
  public void createTable(TableSpec spec) {
    tableName = TableName.valueOf(spec.table());
    family = spec.family().getBytes(java.nio.charset.StandardCharsets.UTF_8);
    TableDescriptorBuilder table = TableDescriptorBuilder.newBuilder(tableName)
        .setMemStoreFlushSize(spec.memstoreFlushBytes())
        // One region for the whole run, as the other engines have one tree: a split would halve
        // every store and its compactions midway.
        .setRegionSplitPolicyClassName(DISABLED_SPLITS)
        .setColumnFamily(ColumnFamilyDescriptorBuilder.newBuilder(family)
            .setBlocksize(spec.blockBytes())
            .setBloomFilterType(BloomType.ROW)
            .setCompressionType(Compression.Algorithm.valueOf(spec.compression()))
            .setMaxVersions(1)
            .build());
    spec.configuration().forEach(table::setValue);
    withOwnLoader(() -> {
      try (Admin admin = connection.getAdmin()) {
        admin.createTable(table.build());
        if (!admin.isTableAvailable(tableName)) {
          throw new IllegalStateException("table " + tableName + " created but not available");
        }
        return null;
      } catch (IOException e) {
        throw new UncheckedIOException("cannot create " + tableName, e);
      }
    });
  }

  @Override
  public void useTable(String table, String family) {
    this.tableName = TableName.valueOf(table);
    this.family = family.getBytes(java.nio.charset.StandardCharsets.UTF_8);
  }

  @Override
  public void setTableConfiguration(String key, String value) {
    withOwnLoader(() -> {
      try (Admin admin = connection.getAdmin()) {
        TableDescriptorBuilder changed = TableDescriptorBuilder.newBuilder(admin.getDescriptor(tableName));
        if (value == null) {
          changed.removeValue(key);
        } else {
          changed.setValue(key, value);
        }
        // Done when the procedure has reopened the table's regions; a region server that aborted
        // meanwhile would leave it waiting for ever, hence the deadline.
        admin.modifyTableAsync(changed.build()).get(REOPEN_DEADLINE_SECONDS, TimeUnit.SECONDS);
        return null;
      } catch (IOException | ExecutionException e) {
        throw new IllegalStateException("cannot change " + key + " of " + tableName, e);
      } catch (TimeoutException e) {
        throw new IllegalStateException("changing " + key + " of " + tableName + " did not reopen its regions within "
            + REOPEN_DEADLINE_SECONDS + " s", e);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("interrupted while changing " + key + " of " + tableName, e);
      }
    });
  }

  @Override
  public String describeTable() {
    return withOwnLoader(() -> {
      try (Admin admin = connection.getAdmin()) {
        return admin.getDescriptor(tableName).toString();
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    });
  }

  private Table table() {
    Table t = tables.get();
    if (t == null) {
      try {
        t = connection.getTable(tableName);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
      tables.set(t);
      opened.add(t);
    }
    return t;
  }

  @Override
  public void put(byte[] row, byte[] value) {
    try {
      table().put(new Put(row).addColumn(family, QUALIFIER, value));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Override
  public byte[] get(byte[] row) {
    try {
      Result r = table().get(new Get(row).addColumn(family, QUALIFIER));
      return r.getValue(family, QUALIFIER);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Override
  public int scan(byte[] from, int limit) {
    if (limit <= 0) {
      return 0;
    }
    // Limit and caching together: one RPC returns every row asked for and closes the scanner.
    Scan scan = new Scan().withStartRow(from).addColumn(family, QUALIFIER).setLimit(limit).setCaching(limit);
    int n = 0;
    try (ResultScanner rs = table().getScanner(scan)) {
      for (Result r : rs) {
        r.getValue(family, QUALIFIER);
        n++;
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return n;
  }

  @Override
  public int flushRegions() {
    return withOwnLoader(() -> {
      try (Admin admin = connection.getAdmin()) {
        List<RegionInfo> regions = admin.getRegions(tableName);
        for (RegionInfo region : regions) {
          admin.flushRegion(region.getRegionName());
        }
        return regions.size();
      } catch (IOException e) {
        throw new UncheckedIOException("flush of " + tableName + " failed", e);
      }
    });
  }

  @Override
  public void close() {
    for (Table t; (t = opened.poll()) != null; ) {
      try {
        t.close();
      } catch (IOException e) {
        // the connection goes anyway
      }
    }
    if (connection != null) {
      try {
        connection.close();
      } catch (IOException e) {
        // the server is stopped next
      }
      connection = null;
    }
  }

  /**
   * Runs {@code body} with this class's loader as the thread's context loader: threads HBase
   * starts inherit it, and libraries that look resources up there (log4j's configuration) find
   * hbase-lib's.
   */
  private static <T> T withOwnLoader(Supplier<T> body) {
    Thread thread = Thread.currentThread();
    ClassLoader before = thread.getContextClassLoader();
    thread.setContextClassLoader(HBaseClientImpl.class.getClassLoader());
    try {
      return body.get();
    } finally {
      thread.setContextClassLoader(before);
    }
  }
}
