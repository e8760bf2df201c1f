package dev.cairn.cassandra.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.AsyncResultSet;
import com.datastax.oss.driver.api.core.cql.BoundStatement;
import com.datastax.oss.driver.api.core.cql.PreparedStatement;
import com.datastax.oss.driver.api.core.cql.Row;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Semaphore;
import java.util.function.Function;

/**
 * Writes, overwrites and deletes rows of a table {@code (k bigint PRIMARY KEY, v blob)} through the
 * driver and keeps what the table must hold in an in-memory reference map; {@link #verify} reads
 * every key of the key space and scans the whole table, and checks both against the map.
 *
 * <p>Writes go out asynchronously, up to {@value #IN_FLIGHT} at a time; within one call every key
 * is written at most once, and each call waits for all its writes, so the order of acknowledgement
 * never matters. Values are random bytes (incompressible) from a seeded {@link Random}; failures
 * name the seed ({@code -Dcairn.seed=...} replays it).
 */
public final class KvWorkload {
  private static final int IN_FLIGHT = 32;

  private CqlSession session;
  private final String name;
  private final int keySpace;
  private final int valueSize;
  private final long seed;
  private final Random random;
  private final Map<Long, ByteBuffer> expected = new HashMap<>();
  private PreparedStatement insert;
  private PreparedStatement delete;
  private PreparedStatement select;
  private PreparedStatement scan;
  private long writes;
  private long overwrites;
  private long deletes;

  /**
   * @param keySpace keys are {@code 0 .. keySpace-1}; reads cover all of them
   * @param valueSize bytes per value
   */
  public KvWorkload(CqlSession session, String keyspace, String table, int keySpace, int valueSize,
      long seed) {
    this.name = keyspace + "." + table;
    this.keySpace = keySpace;
    this.valueSize = valueSize;
    this.seed = seed;
    this.random = new Random(seed);
    useSession(session);
  }

  /** Goes on through another session (e.g. after the node restarted), with the same reference. */
  public void useSession(CqlSession session) {
    this.session = session;
    this.insert = session.prepare("INSERT INTO " + name + " (k, v) VALUES (?, ?)");
    this.delete = session.prepare("DELETE FROM " + name + " WHERE k = ?");
    this.select = session.prepare("SELECT v FROM " + name + " WHERE k = ?");
    this.scan = session.prepare("SELECT k, v FROM " + name);
  }

  /** Writes keys {@code from .. to-1}. */
  public void insertRange(long from, long to) {
    List<Long> keys = new ArrayList<>();
    for (long k = from; k < to; k++) {
      keys.add(k);
    }
    upsert(keys);
  }

  /**
   * Writes {@code upserts} and deletes {@code deletes} distinct random keys of the key space (an
   * upsert of a live key is an overwrite, a delete of an absent key a tombstone all the same).
   */
  public void randomRound(int upserts, int deletes) {
    List<Long> keys = new ArrayList<>();
    for (long k = 0; k < keySpace; k++) {
      keys.add(k);
    }
    Collections.shuffle(keys, random);
    upsert(keys.subList(0, upserts));
    List<Long> gone = keys.subList(upserts, upserts + deletes);
    runAll(gone, k -> delete.bind(k));
    for (Long k : gone) {
      expected.remove(k);
    }
    this.deletes += gone.size();
  }

  private void upsert(List<Long> keys) {
    Map<Long, ByteBuffer> values = new HashMap<>();
    for (Long k : keys) {
      byte[] v = new byte[valueSize];
      random.nextBytes(v);
      values.put(k, ByteBuffer.wrap(v));
    }
    runAll(keys, k -> insert.bind(k, values.get(k)));
    for (Long k : keys) {
      if (expected.put(k, values.get(k)) != null) {
        overwrites++;
      }
    }
    writes += keys.size();
  }

  /** Reads every key of the key space, then scans the table; both must match the reference. */
  public void verify() {
    List<Long> keys = new ArrayList<>();
    for (long k = 0; k < keySpace; k++) {
      keys.add(k);
    }
    Map<Long, ByteBuffer> read = new HashMap<>();
    Set<Long> absent = new HashSet<>();
    List<CompletionStage<AsyncResultSet>> done =
        runAll(keys, k -> select.bind(k));
    for (int i = 0; i < keys.size(); i++) {
      Row row = join(done.get(i)).one();
      if (row == null) {
        absent.add(keys.get(i));
      } else {
        read.put(keys.get(i), row.getByteBuffer("v"));
      }
    }
    for (long k = 0; k < keySpace; k++) {
      ByteBuffer want = expected.get(k);
      if (want == null) {
        assertNull(read.get(k), "deleted or never written key " + k + " is there; " + this);
      } else {
        assertNotNull(read.get(k), "key " + k + " is missing; " + this);
        assertEquals(want, read.get(k), "key " + k + " has another value; " + this);
      }
    }
    Map<Long, ByteBuffer> scanned = new HashMap<>();
    for (Row row : session.execute(scan.bind().setPageSize(500))) {
      ByteBuffer previous = scanned.put(row.getLong("k"), row.getByteBuffer("v"));
      assertNull(previous, "the scan returned key " + row.getLong("k") + " twice; " + this);
    }
    assertEquals(expected.keySet(), scanned.keySet(), "scan keys differ; " + this);
    assertEquals(expected, scanned, "scan values differ; " + this);
  }

  /** How many keys the table holds now. */
  public int liveKeys() {
    return expected.size();
  }

  private List<CompletionStage<AsyncResultSet>> runAll(List<Long> keys,
      Function<Long, BoundStatement> statement) {
    Semaphore permits = new Semaphore(IN_FLIGHT);
    List<CompletionStage<AsyncResultSet>> all = new ArrayList<>(keys.size());
    for (Long k : keys) {
      permits.acquireUninterruptibly();
      CompletionStage<AsyncResultSet> f = session.executeAsync(statement.apply(k));
      f.whenComplete((r, e) -> permits.release());
      all.add(f);
    }
    for (CompletionStage<AsyncResultSet> f : all) {
      join(f);
    }
    return all;
  }

  private AsyncResultSet join(CompletionStage<AsyncResultSet> f) {
    try {
      return f.toCompletableFuture().get();
    } catch (ExecutionException e) {
      throw new AssertionError(name + " request failed; " + this, e.getCause());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError("interrupted", e);
    }
  }

  @Override
  public String toString() {
    return name + " (seed " + seed + "): " + writes + " writes (" + overwrites + " overwrites), "
        + deletes + " deletes, " + expected.size() + " live keys of " + keySpace;
  }
}
