package dev.cairn.cassandra.testing;

import com.datastax.oss.driver.api.core.ConsistencyLevel;
import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.DriverException;
import com.datastax.oss.driver.api.core.cql.AsyncResultSet;
import com.datastax.oss.driver.api.core.cql.PreparedStatement;
import com.datastax.oss.driver.api.core.cql.Row;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * A load on a table {@code (k bigint PRIMARY KEY, v blob)} while a cluster goes through its
 * operations: one thread writes, deletes and reads random keys at QUORUM, at a paced rate, and
 * checks every read against what the table may hold.
 *
 * <p><b>What a key may hold.</b> After an acknowledged write or delete, exactly that value (or
 * none): QUORUM writes and QUORUM reads overlap in at least one replica, so a later read must see
 * it, whatever node coordinates. A write that failed (a timeout, too few replicas while a node
 * restarts) may or may not have been applied, so from then on the key may hold the value before it
 * or the failed one, until the next acknowledged write settles it. A read that returns anything
 * else is a violation: a lost acknowledged write, or a wrong value.
 *
 * <p>This relies on the driver's client-side timestamps (its default generator, monotonic per
 * session): a failed write that a replica applies late still loses to every later write, which
 * carries a later timestamp.
 *
 * <p>Failed operations are counted, not violations: a client sees them, and retries. The checks
 * run on the load's thread, so the reference needs no locking; {@link #verifyAll} runs after
 * {@link #close}.
 */
public final class QuorumLoad implements AutoCloseable {
  private static final int MAX_REPORTED = 10;
  private static final int VERIFY_IN_FLIGHT = 64;

  private final CqlSession session;
  private final int keys;
  private final int valueSize;
  private final long seed;
  private final PreparedStatement insert;
  private final PreparedStatement delete;
  private final PreparedStatement select;
  private final AtomicBoolean running = new AtomicBoolean(true);
  private final Thread thread;

  // Owned by the load's thread until close; null in a list means "no row".
  private final Map<Long, List<ByteBuffer>> possible = new HashMap<>();
  private final List<String> violations = new ArrayList<>();
  private final AtomicLong acknowledged = new AtomicLong();
  private final AtomicLong failedWrites = new AtomicLong();
  private final AtomicLong reads = new AtomicLong();
  private final AtomicLong failedReads = new AtomicLong();
  private final AtomicLong violationCount = new AtomicLong();

  /**
   * Starts the load at once.
   *
   * @param opsPerSecond the pace; the load leaves the machine's cores to the nodes' operations
   */
  public QuorumLoad(CqlSession session, String keyspace, String table, int keys, int valueSize, int opsPerSecond,
      long seed) {
    this.session = session;
    this.keys = keys;
    this.valueSize = valueSize;
    this.seed = seed;
    String t = keyspace + "." + table;
    this.insert = session.prepare("INSERT INTO " + t + " (k, v) VALUES (?, ?)");
    this.delete = session.prepare("DELETE FROM " + t + " WHERE k = ?");
    this.select = session.prepare("SELECT v FROM " + t + " WHERE k = ?");
    long periodNanos = 1_000_000_000L / opsPerSecond;
    this.thread = new Thread(() -> run(periodNanos), "quorum-load");
    thread.start();
  }

  private void run(long periodNanos) {
    Random random = new Random(seed);
    long next = System.nanoTime();
    while (running.get()) {
      long key = random.nextInt(keys);
      int op = random.nextInt(100);
      if (op < 60) {
        byte[] v = new byte[valueSize];
        random.nextBytes(v);
        write(key, ByteBuffer.wrap(v));
      } else if (op < 65) {
        write(key, null);
      } else {
        read(key);
      }
      next += periodNanos;
      long wait = next - System.nanoTime();
      if (wait > 0) {
        LockSupport.parkNanos(wait);
      } else {
        next = System.nanoTime(); // behind: do not burst to catch up
      }
    }
  }

  private void write(long key, ByteBuffer value) {
    List<ByteBuffer> now = possible.computeIfAbsent(key, k -> listOf(null));
    try {
      session.execute((value == null ? delete.bind(key) : insert.bind(key, value))
          .setConsistencyLevel(ConsistencyLevel.QUORUM));
      acknowledged.incrementAndGet();
      possible.put(key, listOf(value));
    } catch (DriverException e) {
      failedWrites.incrementAndGet();
      now.add(value);
    }
  }

  private void read(long key) {
    Row row;
    try {
      row = session.execute(select.bind(key).setConsistencyLevel(ConsistencyLevel.QUORUM)).one();
    } catch (DriverException e) {
      failedReads.incrementAndGet();
      return;
    }
    reads.incrementAndGet();
    check(key, row == null ? null : row.getByteBuffer("v"));
  }

  private void check(long key, ByteBuffer actual) {
    List<ByteBuffer> allowed = possible.getOrDefault(key, listOf(null));
    if (!allowed.contains(actual)) {
      violationCount.incrementAndGet();
      if (violations.size() < MAX_REPORTED) {
        violations.add("key " + key + ": read " + describe(actual) + ", may hold only "
            + allowed.stream().map(QuorumLoad::describe).toList());
      }
    }
  }

  /**
   * After {@link #close}: reads every key at QUORUM, {@value #VERIFY_IN_FLIGHT} at a time (a
   * failed read is tried again, up to five times), and checks it.
   *
   * @throws IllegalStateException if the load still runs
   */
  public void verifyAll() throws InterruptedException {
    if (thread.isAlive()) {
      throw new IllegalStateException("close the load first");
    }
    for (long from = 0; from < keys; from += VERIFY_IN_FLIGHT) {
      long to = Math.min(keys, from + VERIFY_IN_FLIGHT);
      List<CompletableFuture<AsyncResultSet>> batch = new ArrayList<>();
      for (long key = from; key < to; key++) {
        batch.add(readAsync(key, 5));
      }
      for (long key = from; key < to; key++) {
        Row row;
        try {
          row = batch.get((int) (key - from)).get().one();
        } catch (ExecutionException e) {
          throw new AssertionError("key " + key + " unreadable at QUORUM after five tries", e.getCause());
        }
        reads.incrementAndGet();
        check(key, row == null ? null : row.getByteBuffer("v"));
      }
    }
  }

  private CompletableFuture<AsyncResultSet> readAsync(long key, int triesLeft) {
    return session.executeAsync(select.bind(key).setConsistencyLevel(ConsistencyLevel.QUORUM))
        .toCompletableFuture()
        .handle((rs, e) -> e == null || triesLeft <= 1
            ? (e == null ? CompletableFuture.completedFuture(rs) : CompletableFuture.<AsyncResultSet>failedFuture(e))
            : readAsync(key, triesLeft - 1))
        .thenCompose(f -> f);
  }

  public long acknowledgedWrites() {
    return acknowledged.get();
  }

  public long violations() {
    return violationCount.get();
  }

  /** The first violations, for a failure message; read after {@link #close}. */
  public List<String> firstViolations() {
    return List.copyOf(violations);
  }

  @Override
  public String toString() {
    return acknowledged + " acknowledged writes, " + failedWrites + " failed, " + reads + " reads checked, "
        + failedReads + " failed, " + violationCount + " violations (seed " + seed + ")";
  }

  /** Stops the load and waits for its thread. */
  @Override
  public void close() throws InterruptedException {
    running.set(false);
    thread.join();
  }

  private static List<ByteBuffer> listOf(ByteBuffer value) {
    List<ByteBuffer> l = new ArrayList<>(2);
    l.add(value);
    return l;
  }

  private static String describe(ByteBuffer b) {
    if (b == null) {
      return "no row";
    }
    ByteBuffer d = b.duplicate();
    byte[] head = new byte[Math.min(6, d.remaining())];
    d.get(head);
    return d.capacity() + " bytes " + HexFormat.of().formatHex(head) + "..";
  }
}
