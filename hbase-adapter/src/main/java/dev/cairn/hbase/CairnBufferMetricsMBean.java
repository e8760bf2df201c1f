package dev.cairn.hbase;

/**
 * One store's compaction buffer, as JMX shows it ({@code dev.cairn.hbase:type=CompactionBuffer,
 * table=...,region=...,family=...}). Counts and sizes are read now; cached fractions are as of
 * the last trim pass.
 */
public interface CairnBufferMetricsMBean {
  /** Generations held: live outputs with leaves answering in their place. */
  int getGenerations();

  /** Files the buffer holds (the generations' leaves). */
  int getBufferFiles();

  /** The buffer's bytes on disk: its extra space beside the live files. */
  long getBufferBytes();

  /** The share of the buffer's bytes in the block cache. */
  double getBufferCachedFraction();

  /** The generations' outputs' bytes. */
  long getOutputBytes();

  /** The share of the outputs' bytes in the block cache. */
  double getOutputCachedFraction();

  /** Rows the generations hold as changed (reads of these go to the outputs). */
  long getChangedRows();

  /** Reads (store scanners) that used a generation's leaves. */
  long getReadsFromBuffer();

  /** Reads that had to use a generation's output. */
  long getReadsFromOutputs();

  /** Leaves the reads through the buffer opened. */
  long getLeafFilesOpened();

  /**
   * Leaves the reads through the buffer skipped: gets whose row the leaf's row filter or drop
   * mask rules out.
   */
  long getLeafFilesSkipped();

  /** The memory of the leaves' row filters. */
  long getRowFilterBytes();

  /** Retirements preceded by a warm hand-over (the trim retired a generation its reads used). */
  long getWarmHandOvers();

  /** Output data blocks the warm hand-overs loaded (cached already, or read from disk). */
  long getWarmedBlocks();

  /** Those blocks' bytes on disk. */
  long getWarmedBytes();

  /** Compactions that became (or extended) a generation. */
  long getBufferedCompactions();

  /** Compactions not buffered (see {@link #getLastNotBufferedReason}). */
  long getUnbufferedCompactions();

  String getLastNotBufferedReason();

  long getRetiredCooled();

  long getRetiredOutputWarm();

  long getRetiredOutgrown();

  long getRetiredDiluted();

  long getRetiredOverBudget();

  /** Generations ended because a compaction of their output was not buffered. */
  long getRetiredByUnbufferedCompaction();
}
