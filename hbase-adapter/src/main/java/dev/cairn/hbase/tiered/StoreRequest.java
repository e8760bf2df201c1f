package dev.cairn.hbase.tiered;

import java.util.List;
import java.util.Objects;

/**
 * One selection a tiered store asks its policy for.
 *
 * @param eligible the files a compaction may take, oldest first: those newer than every file
 *     already being compacted, so that any contiguous window keeps the store's files contiguous
 *     by sequence id (HBase's {@code getCurrentEligibleFiles})
 * @param compactingFiles files of the store already in a running compaction
 * @param blockingFiles the store's file count at which writes stall (HBase's {@code
 *     hbase.hstore.blockingStoreFiles})
 * @param kind what asked
 * @param storeSelection what the store's own policy would select now, a contiguous window of
 *     {@code eligible} (empty: nothing due); the delay decides whether and when it runs
 */
public record StoreRequest(
    List<StoreFile> eligible, int compactingFiles, int blockingFiles, Kind kind, List<StoreFile> storeSelection) {

  /** Who asked, in the order the policy respects them. */
  public enum Kind {
    /** An operator's request (HBase: {@code Admin.compact}, {@code majorCompact}): never delayed. */
    USER,
    /** A major compaction the store's schedule has made due: never delayed. */
    MAJOR,
    /** Off-peak hours, which the operator set aside for compaction: never delayed. */
    OFF_PEAK,
    /** A flush or the periodic check: the load decides. */
    SYSTEM
  }

  public StoreRequest {
    eligible = List.copyOf(eligible);
    storeSelection = List.copyOf(storeSelection);
    Objects.requireNonNull(kind, "kind");
    if (compactingFiles < 0) {
      throw new IllegalArgumentException("compactingFiles must be >= 0: " + compactingFiles);
    }
    if (blockingFiles < 1) {
      throw new IllegalArgumentException("blockingFiles must be >= 1: " + blockingFiles);
    }
    if (!storeSelection.isEmpty()) {
      int from = eligible.indexOf(storeSelection.get(0));
      if (from < 0 || from + storeSelection.size() > eligible.size()
          || !eligible.subList(from, from + storeSelection.size()).equals(storeSelection)) {
        throw new IllegalArgumentException(
            "storeSelection must be a contiguous window of eligible: " + storeSelection);
      }
    }
  }

  /** Files in the store: the eligible ones and those being compacted. */
  public int storeFiles() {
    return eligible.size() + compactingFiles;
  }
}
