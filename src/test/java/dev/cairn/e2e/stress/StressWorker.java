package dev.cairn.e2e.stress;

import dev.cairn.Cairn;
import dev.cairn.CairnIterator;
import dev.cairn.Entry;
import dev.cairn.ReadOptions;
import dev.cairn.Snapshot;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

/**
 * One thread of the stress process. Most steps issue the thread's next {@link StressOp} and
 * acknowledge it; the rest read and check, or drive background work: point reads, iterators,
 * seeks and scans over the thread's range and over the whole database, reads through a snapshot
 * held across later writes, flushes and range compactions; about one step in a thousand closes
 * and reopens the database.
 *
 * <p>Because only this thread writes its keys, its model is exact at every step: every read of
 * its own keys (latest or through a snapshot) must equal the model, not merely be plausible.
 * Other threads' keys are checked for being well-formed values written for that key.
 */
final class StressWorker implements Runnable {
  private final ReopenableDb holder;
  private final StressWorkload workload;
  private final int thread;
  private final KeyVersions model;
  private final Random random;
  private final AckChannel channel;
  private long next;
  /** The open database during a step. */
  private Cairn db;
  private Snapshot snapshot;
  private int snapshotEpoch;
  private KeyVersions snapshotModel;

  StressWorker(ReopenableDb holder, StressWorkload workload, int thread, long next, KeyVersions model, long actionSeed,
      AckChannel channel) {
    this.holder = holder;
    this.workload = workload;
    this.thread = thread;
    this.next = next;
    this.model = model;
    this.random = new Random(StressKeys.Mix.of(actionSeed, thread));
    this.channel = channel;
  }

  @Override
  public void run() {
    runSteps(Long.MAX_VALUE);
  }

  /** Runs {@code steps} steps (a reopen counts as one). */
  void runSteps(long steps) {
    for (long i = 0; i < steps; i++) {
      if (random.nextInt(1000) == 0) {
        holder.reopen();
        channel.reopened();
        continue;
      }
      db = holder.enter();
      try {
        step();
      } finally {
        db = null;
        holder.exit();
      }
    }
  }

  private void step() {
    // Per mille: about four steps in five write; flushes and range compactions are rare
    // because each waits for several fsyncs, and full memtables flush often enough anyway.
    int roll = random.nextInt(1000);
    if (roll < 70) {
      checkPointReads();
    } else if (roll < 100) {
      check("iterator over own range", KeyVersions.read(db, ReadOptions.DEFAULT, thread, model.size()), model);
    } else if (roll < 140) {
      snapshotStep();
    } else if (roll < 155) {
      checkSeek();
    } else if (roll < 165) {
      checkScan();
    } else if (roll < 175) {
      checkWholeDatabase();
    } else if (roll < 180) {
      db.flush();
    } else if (roll < 183) {
      compactSomeRange();
    } else {
      writeNext();
    }
  }

  private void writeNext() {
    StressOp op = StressOp.generate(workload, thread, next);
    op.applyTo(db);
    channel.ack(thread, next, op.sync());
    op.applyTo(model);
    next++;
  }

  private void checkPointReads() {
    for (int i = 0; i < 8; i++) {
      int k = randomKey();
      long found = KeyVersions.pointRead(db.get(StressKeys.key(thread, k)), thread, k);
      if (found != model.get(k)) {
        throw new StressFailure("get of thread " + thread + " key " + k + " found version " + found
            + ", expected " + model.get(k) + " (next op " + next + ")");
      }
    }
    // Another thread's key may change under us; it must still hold a value written for it.
    int other = random.nextInt(workload.threads());
    int k = randomKey();
    KeyVersions.pointRead(db.get(StressKeys.key(other, k)), other, k);
  }

  /**
   * Takes a snapshot on one visit and checks it on a later one, after more writes: reads through
   * it must see the model as it was when it was taken.
   */
  private void snapshotStep() {
    if (snapshot != null && snapshotEpoch != holder.epoch()) {
      // Taken from a database instance that has since been closed and reopened.
      snapshot.close();
      snapshot = null;
    }
    if (snapshot == null) {
      snapshot = db.snapshot();
      snapshotEpoch = holder.epoch();
      snapshotModel = model.copy();
      return;
    }
    try (Snapshot s = snapshot) {
      check("iterator at snapshot " + s.sequence(), KeyVersions.read(db, ReadOptions.at(s), thread, model.size()),
          snapshotModel);
      for (int i = 0; i < 8; i++) {
        int k = randomKey();
        byte[] key = StressKeys.key(thread, k);
        long viaSnapshot = KeyVersions.pointRead(s.get(key), thread, k);
        long viaOptions = KeyVersions.pointRead(db.get(key, ReadOptions.at(s)), thread, k);
        if (viaSnapshot != snapshotModel.get(k) || viaOptions != snapshotModel.get(k)) {
          throw new StressFailure("read at snapshot " + s.sequence() + " of thread " + thread + " key " + k
              + " found versions " + viaSnapshot + " (Snapshot.get) and " + viaOptions
              + " (ReadOptions), expected " + snapshotModel.get(k));
        }
      }
    } finally {
      snapshot = null;
      snapshotModel = null;
    }
  }

  /** Seeks to a random key of the range and checks the next few entries against the model. */
  private void checkSeek() {
    int from = randomKey();
    try (CairnIterator it = db.iterator(ReadOptions.DEFAULT.withBounds(null, StressKeys.threadEnd(thread)))) {
      it.seek(StressKeys.key(thread, from));
      for (int k = from, seen = 0; k < model.size() && seen < 20; k++) {
        if (model.get(k) == KeyVersions.ABSENT) {
          continue;
        }
        if (!it.isValid() || !Arrays.equals(it.key(), StressKeys.key(thread, k))) {
          throw new StressFailure("seek to thread " + thread + " key " + from + ": expected key " + k + " (version "
              + model.get(k) + ") next, found " + (it.isValid() ? new String(it.key()) : "the end"));
        }
        long found = KeyVersions.pointRead(it.value(), thread, k);
        if (found != model.get(k)) {
          throw new StressFailure("seek to thread " + thread + " key " + from + ": key " + k + " has version "
              + found + ", expected " + model.get(k));
        }
        it.next();
        seen++;
      }
    }
  }

  private void checkScan() {
    List<Entry> entries = db.scan(StressKeys.threadPrefix(thread), StressKeys.threadEnd(thread), Integer.MAX_VALUE);
    KeyVersions seen = new KeyVersions(thread, model.size());
    for (Entry e : entries) {
      int k = StressKeys.indexOf(thread, e.key());
      if (k < 0 || k >= model.size()) {
        throw new StressFailure("scan of thread " + thread + "'s range returned a foreign key " + new String(e.key()));
      }
      seen.set(k, KeyVersions.pointRead(e.value(), thread, k));
    }
    check("scan of own range", seen, model);
  }

  /** Iterates the whole database: keys in strictly increasing order, all well-formed; own keys exact. */
  private void checkWholeDatabase() {
    KeyVersions own = new KeyVersions(thread, model.size());
    byte[] previous = null;
    try (CairnIterator it = db.iterator()) {
      for (it.seekToFirst(); it.isValid(); it.next()) {
        byte[] key = it.key();
        if (previous != null && Arrays.compareUnsigned(previous, key) >= 0) {
          throw new StressFailure("full iterator out of order: " + new String(key) + " after " + new String(previous));
        }
        previous = key;
        int owner = ownerOf(key);
        int k = StressKeys.indexOf(owner, key);
        long version = KeyVersions.pointRead(it.value(), owner, k);
        if (owner == thread) {
          own.set(k, version);
        }
      }
    }
    check("full iterator", own, model);
  }

  private int ownerOf(byte[] key) {
    for (int t = 0; t < workload.threads(); t++) {
      int k = StressKeys.indexOf(t, key);
      if (k >= 0 && k < workload.keysPerThread()) {
        return t;
      }
    }
    throw new StressFailure("iterator returned a key no thread writes: " + Arrays.toString(key));
  }

  private void compactSomeRange() {
    if (random.nextInt(10) == 0) {
      db.compactRange(null, null);
      return;
    }
    int a = randomKey();
    int b = randomKey();
    db.compactRange(StressKeys.key(thread, Math.min(a, b)), StressKeys.key(thread, Math.max(a, b)));
  }

  private int randomKey() {
    int n = model.size();
    return random.nextBoolean() ? random.nextInt(Math.max(1, n / 10)) : random.nextInt(n);
  }

  private void check(String what, KeyVersions found, KeyVersions expected) {
    String diff = found.diff(expected);
    if (diff != null) {
      throw new StressFailure(what + " of thread " + thread + " disagrees with the model (next op " + next + "): " + diff);
    }
  }
}
