package dev.cairn.bench.workload;

/**
 * The operations a workload issues, by record id; the runner times and counts each. Ids at or
 * past the loaded records are new keys (inserts).
 */
public interface Ops {
  void read(long id);

  /** Writes a fresh random value under {@code id}. */
  void write(long id);

  /** Reads up to {@code limit} records from {@code id} on. */
  void scan(long id, int limit);
}
