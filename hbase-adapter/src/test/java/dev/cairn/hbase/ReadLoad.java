package dev.cairn.hbase;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Table;

/**
 * Client threads reading random rows of a table through the HBase client, as fast as they can:
 * with more data than the block cache holds, their misses make the region server's load high.
 */
final class ReadLoad implements AutoCloseable {
  private final List<Thread> threads = new ArrayList<>();
  private final AtomicLong reads = new AtomicLong();
  private final AtomicReference<Throwable> failure = new AtomicReference<>();
  private volatile boolean stop;

  ReadLoad(Connection connection, String table, int rows, int threadCount) {
    for (int i = 0; i < threadCount; i++) {
      Thread t = new Thread(() -> read(connection, table, rows), "read-load-" + i);
      t.setDaemon(true);
      threads.add(t);
      t.start();
    }
  }

  private void read(Connection connection, String name, int rows) {
    try (Table table = connection.getTable(TableName.valueOf(name))) {
      while (!stop) {
        table.get(new Get(Rows.key(ThreadLocalRandom.current().nextInt(rows))));
        reads.incrementAndGet();
      }
    } catch (IOException | RuntimeException e) {
      failure.compareAndSet(null, e);
    }
  }

  long reads() {
    return reads.get();
  }

  /** The reads so far and the first reader's failure, for a failed assertion's message. */
  String status() {
    Throwable f = failure.get();
    return "readers: " + reads.get() + " reads" + (f == null ? "" : ", failed: " + f);
  }

  /** Stops the readers; a read that failed fails the test here. */
  @Override
  public void close() throws InterruptedException {
    stop = true;
    for (Thread t : threads) {
      t.join();
    }
    if (failure.get() != null) {
      throw new AssertionError("a reader failed", failure.get());
    }
  }
}
