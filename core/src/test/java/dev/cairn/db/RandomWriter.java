package dev.cairn.db;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.cairn.Cairn;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Random;

/**
 * A thread writing random puts and deletes over a small key space, for tests that copy a database
 * while it is written (checkpoints, backups): a copy must hold the state after some prefix of the
 * writes, at least those acknowledged before the copy began and at most those begun before it
 * ended ({@link #assertPrefix}).
 */
final class RandomWriter implements AutoCloseable {
  private static final int MAX_OPS = 2_000_000;

  private final Cairn db;
  private final int keys;
  private final Random random;
  /** Per operation: the key, and the value's round (-1 for a delete). Written before {@link #started} moves. */
  private final int[] opKey = new int[MAX_OPS];
  private final int[] opValue = new int[MAX_OPS];
  private volatile int started;
  private volatile int acknowledged;
  private volatile boolean stop;
  private volatile Throwable failure;
  private final Thread thread;

  RandomWriter(Cairn db, long seed, int keys) {
    this.db = db;
    this.keys = keys;
    this.random = new Random(seed);
    this.thread = new Thread(this::run, "random-writer");
  }

  RandomWriter start() {
    thread.start();
    return this;
  }

  private void run() {
    try {
      for (int i = 0; i < MAX_OPS && !stop; i++) {
        int k = random.nextInt(keys);
        boolean delete = random.nextInt(5) == 0;
        opKey[i] = k;
        opValue[i] = delete ? -1 : i;
        started = i + 1;
        if (delete) {
          db.delete(key(k));
        } else {
          db.put(key(k), value(k, i));
        }
        acknowledged = i + 1;
      }
    } catch (Throwable t) {
      failure = t;
    }
  }

  /** Waits until {@code n} writes are acknowledged (at most 30 s). */
  void awaitAcknowledged(int n) {
    long deadline = System.nanoTime() + 30_000_000_000L;
    while (acknowledged < n) {
      if (failure != null || System.nanoTime() > deadline) {
        fail("the writer acknowledged " + acknowledged + " of " + n + " writes", failure);
      }
      Thread.onSpinWait();
    }
  }

  int acknowledged() {
    return acknowledged;
  }

  int started() {
    return started;
  }

  @Override
  public void close() throws InterruptedException {
    stop = true;
    thread.join();
    if (failure != null) {
      fail("the writer failed", failure);
    }
  }

  /**
   * Asserts that {@code copy} holds exactly the state after the first {@code p} writes, for some
   * {@code p} in {@code [from, to]}.
   */
  void assertPrefix(Cairn copy, int from, int to) {
    assertTrue(from <= to && to <= started, "from " + from + ", to " + to + ", started " + started);
    byte[][] inCopy = new byte[keys][];
    for (int k = 0; k < keys; k++) {
      inCopy[k] = copy.get(key(k));
    }
    int[] model = new int[keys]; // the round of the key's value, -1 for absent
    Arrays.fill(model, -1);
    for (int i = 0; i < from; i++) {
      model[opKey[i]] = opValue[i];
    }
    int mismatches = 0;
    for (int k = 0; k < keys; k++) {
      mismatches += matches(k, model[k], inCopy[k]) ? 0 : 1;
    }
    for (int p = from; ; p++) {
      if (mismatches == 0) {
        return;
      }
      if (p == to) {
        fail("the copy is the state after no prefix of the writes in [" + from + ", " + to + "]: "
            + mismatches + " key(s) differ after " + to);
      }
      int k = opKey[p];
      boolean before = matches(k, model[k], inCopy[k]);
      model[k] = opValue[p];
      boolean after = matches(k, model[k], inCopy[k]);
      mismatches += (before ? 1 : 0) - (after ? 1 : 0);
    }
  }

  private static boolean matches(int k, int round, byte[] actual) {
    return round < 0 ? actual == null : Arrays.equals(value(k, round), actual);
  }

  static byte[] key(int k) {
    return String.format("rw%06d", k).getBytes(StandardCharsets.UTF_8);
  }

  static byte[] value(int k, int round) {
    return ("v-" + k + "-" + round + "-" + "r".repeat(30)).getBytes(StandardCharsets.UTF_8);
  }
}
