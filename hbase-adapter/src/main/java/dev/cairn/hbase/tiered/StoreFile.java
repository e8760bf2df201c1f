package dev.cairn.hbase.tiered;

/**
 * One file of a tiered store as a compaction policy sees it.
 *
 * @param id the caller's handle for the file; printed, never interpreted
 * @param sizeBytes bytes on disk
 * @param cachedBytes bytes of its blocks now in the block cache (0 when none, or not known)
 * @param reference a split daughter's reference to half of its parent's file: such files are
 *     never cached and block a merge of the region until compacted away, so they are never delayed
 * @param excludedFromMinor a bulk-loaded file the store keeps out of minor compactions
 */
public record StoreFile(long id, long sizeBytes, long cachedBytes, boolean reference, boolean excludedFromMinor) {

  public StoreFile {
    if (sizeBytes < 0) {
      throw new IllegalArgumentException("store file " + id + ": sizeBytes must be >= 0: " + sizeBytes);
    }
    if (cachedBytes < 0) {
      throw new IllegalArgumentException("store file " + id + ": cachedBytes must be >= 0: " + cachedBytes);
    }
  }

  /** A plain file: not a reference, not bulk-loaded, nothing cached. */
  public static StoreFile of(long id, long sizeBytes) {
    return new StoreFile(id, sizeBytes, 0, false, false);
  }
}
