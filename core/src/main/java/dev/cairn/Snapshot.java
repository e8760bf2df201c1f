package dev.cairn;

/**
 * A consistent point-in-time view of the database. While open it keeps the entries it can see
 * from being dropped by compaction. Thread-safe.
 */
public interface Snapshot extends AutoCloseable {
  /** The sequence number of the last write this snapshot sees. */
  long sequence();

  byte[] get(byte[] key);

  CairnIterator iterator();

  @Override
  void close();
}
