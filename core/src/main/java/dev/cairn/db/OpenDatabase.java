package dev.cairn.db;

import dev.cairn.Cairn;
import dev.cairn.Snapshot;
import dev.cairn.Stats;
import dev.cairn.db.base.Engine;
import dev.cairn.db.read.ReadState;

/**
 * What the facade ({@link DbImpl}) reads from: a database open for writes ({@link LiveDatabase})
 * or a read-only view of one ({@link ReadOnlyView}). The facade checks the arguments, counts the
 * calls in flight and times them, the same way for both; this says where the data comes from.
 */
interface OpenDatabase {
  Engine engine();

  /** The calls in flight, which close waits for. */
  InFlightCalls calls();

  /**
   * The sequence a read without a snapshot reads at: below 0 for the last published one (a live
   * database's moves), or the fixed sequence of a view.
   */
  long latestSequence();

  /** Point read at {@code sequence}. */
  byte[] get(byte[] key, long sequence, boolean fillCache);

  /** Pins the memtables and a version for one iterator or verification at {@code sequence}. */
  ReadState pin(long sequence);

  /** A snapshot of {@code owner} at the latest sequence. */
  Snapshot snapshot(Cairn owner);

  Stats stats();

  /**
   * A read's failure as the caller should see it: a view whose owner deleted a file under it
   * reports {@link dev.cairn.DatabaseChangedException}, not the missing file; a live database
   * returns {@code e} as it is.
   */
  RuntimeException failure(RuntimeException e);

  /** Closes, waiting for the calls in flight; a second call does nothing. */
  void close();
}
