package dev.cairn.db.read;

import dev.cairn.Cairn;
import dev.cairn.CairnIterator;
import dev.cairn.DatabaseClosedException;
import dev.cairn.ReadOptions;
import dev.cairn.Snapshot;
import dev.cairn.db.base.SnapshotList;
import java.util.concurrent.atomic.AtomicBoolean;

/** A registered snapshot sequence; closing it lets compactions drop what only it could see. */
public final class SnapshotImpl implements Snapshot {
  private final Cairn owner;
  private final SnapshotList snapshots;
  private final long sequence;
  private final AtomicBoolean closed = new AtomicBoolean();

  public SnapshotImpl(Cairn owner, SnapshotList snapshots, long sequence) {
    this.owner = owner;
    this.snapshots = snapshots;
    this.sequence = sequence;
    snapshots.add(sequence);
  }

  /**
   * The sequence a read of {@code owner} at {@code snapshot} sees: {@code latest} when there is no
   * snapshot. Refuses another database's snapshot, and a closed one.
   */
  public static long sequenceFor(Snapshot snapshot, Cairn owner, long latest) {
    if (snapshot == null) {
      return latest;
    }
    if (!(snapshot instanceof SnapshotImpl s) || s.owner != owner) {
      throw new IllegalArgumentException("snapshot belongs to another database");
    }
    s.ensureOpen();
    return s.sequence;
  }

  void ensureOpen() {
    if (closed.get()) {
      throw new DatabaseClosedException("snapshot at sequence " + sequence);
    }
  }

  @Override
  public long sequence() {
    return sequence;
  }

  @Override
  public byte[] get(byte[] key) {
    return owner.get(key, ReadOptions.at(this));
  }

  @Override
  public CairnIterator iterator() {
    return owner.iterator(ReadOptions.at(this));
  }

  @Override
  public void close() {
    if (closed.compareAndSet(false, true)) {
      snapshots.remove(sequence);
    }
  }

  @Override
  public String toString() {
    return "Snapshot@" + sequence;
  }
}
