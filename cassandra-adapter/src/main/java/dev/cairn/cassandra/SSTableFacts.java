package dev.cairn.cassandra;

import java.util.Objects;

/**
 * What the strategy reads off one live SSTable to place it in Cairn's model: plain values, so
 * the translation ({@link ShapeTranslator}) is tested without a running Cassandra.
 *
 * @param id the model's file id for this SSTable, stable while it lives in this strategy
 * @param level the level recorded in the SSTable's metadata (LCS's manifest keeps it honest)
 * @param firstKey the first partition position ({@link TokenKeys#encode})
 * @param lastKey the last partition position
 * @param bytes its size on disk
 * @param estimatedKeys Cassandra's estimate of its partitions
 * @param age its rank in creation order (larger is newer); orders L0 newest first
 */
public record SSTableFacts(
    long id, int level, byte[] firstKey, byte[] lastKey, long bytes, long estimatedKeys, long age) {

  public SSTableFacts {
    Objects.requireNonNull(firstKey, "firstKey");
    Objects.requireNonNull(lastKey, "lastKey");
    if (level < 0) {
      throw new IllegalArgumentException("sstable " + id + ": negative level " + level);
    }
  }
}
