package dev.cairn.compaction.block;

/**
 * What core measured about one target table of a compaction, for {@link SelectiveCompactionRule}.
 *
 * @param fileId the target table
 * @param totalBytes bytes of its file, garbage included
 * @param validBytes bytes its newest footer still references
 * @param dataBlocks data blocks in its index
 * @param dirtyBlocks blocks that incoming keys fall into (FindDirtyBlocks, Alg. 3)
 * @param estimatedAppendBytes bytes an append would add (dirty blocks rewritten, incoming data,
 *     index, filter)
 */
public record TargetStats(long fileId, long totalBytes, long validBytes, long dataBlocks,
    long dirtyBlocks, long estimatedAppendBytes) {

  public TargetStats {
    if (totalBytes < 0 || validBytes < 0 || validBytes > totalBytes || dataBlocks < 0
        || dirtyBlocks < 0 || dirtyBlocks > dataBlocks || estimatedAppendBytes < 0) {
      throw new IllegalArgumentException("inconsistent target stats " + fileId + ": valid "
          + validBytes + "/" + totalBytes + " bytes, dirty " + dirtyBlocks + "/" + dataBlocks
          + " blocks, append " + estimatedAppendBytes);
    }
  }

  public double dirtyRatio() {
    return dataBlocks == 0 ? 1.0 : (double) dirtyBlocks / dataBlocks;
  }

  public double validRatio() {
    return totalBytes == 0 ? 1.0 : (double) validBytes / totalBytes;
  }

  /**
   * The valid ratio the table would have after the append: its valid bytes lose the dirty
   * blocks' share (superseded by the appended ones) and gain what is appended, over its bytes
   * with the append. An estimate: the dirty blocks are taken to hold their share of the valid
   * bytes, and the superseded index and filter are left out.
   */
  public double validRatioAfterAppend() {
    double validAfter = validBytes * (1 - dirtyRatio()) + estimatedAppendBytes;
    double totalAfter = totalBytes + estimatedAppendBytes;
    return totalAfter == 0 ? 1.0 : Math.min(1.0, validAfter / totalAfter);
  }
}
