package dev.cairn.hbase;

import dev.cairn.hbase.buffer.GenerationTrim;
import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.atomic.LongAdder;

/**
 * One store's buffer counters and the figures of its last trim pass, for its metrics bean
 * ({@link CairnBufferMetricsMBean}).
 */
final class BufferStats {
  private final LongAdder buffered = new LongAdder();
  private final LongAdder notBuffered = new LongAdder();
  private final LongAdder retiredUnbuffered = new LongAdder();
  private final Map<GenerationTrim.Reason, LongAdder> retired = new EnumMap<>(GenerationTrim.Reason.class);
  private final LongAdder leafReads = new LongAdder();
  private final LongAdder outputReads = new LongAdder();
  private final LongAdder leafFilesOpened = new LongAdder();
  private final LongAdder leafFilesSkipped = new LongAdder();
  private final LongAdder warmHandOvers = new LongAdder();
  private final LongAdder warmedBlocks = new LongAdder();
  private final LongAdder warmedBytes = new LongAdder();
  private volatile String lastNotBuffered = "";
  private volatile Pass lastPass = new Pass(0, 0, 0, 0, 0, 0, 0, 0);

  /**
   * The buffer as the last trim pass found it.
   *
   * @param generations generations held
   * @param bufferFiles their leaves
   * @param bufferBytes the leaves' bytes on disk (the buffer's extra space)
   * @param bufferCachedBytes the leaves' bytes in the block cache
   * @param outputBytes the generations' outputs' bytes
   * @param outputCachedBytes the outputs' bytes in the block cache
   * @param changedRows the changed rows the generations hold (their memory)
   * @param rowFilterBytes the leaves' row filters' memory
   */
  record Pass(int generations, int bufferFiles, long bufferBytes, long bufferCachedBytes, long outputBytes,
      long outputCachedBytes, long changedRows, long rowFilterBytes) {}

  BufferStats() {
    for (GenerationTrim.Reason r : GenerationTrim.Reason.values()) {
      retired.put(r, new LongAdder());
    }
  }

  void buffered() {
    buffered.increment();
  }

  void notBuffered(String why) {
    notBuffered.increment();
    lastNotBuffered = why;
  }

  /** A generation retired by the trim for {@code reason}. */
  void retired(GenerationTrim.Reason reason) {
    retired.get(reason).increment();
  }

  /** A generation ended because a compaction of its output was not buffered. */
  void endedByUnbufferedCompaction() {
    retiredUnbuffered.increment();
  }

  /** A read used a generation's output (it holds a changed row of the generation). */
  void outputRead() {
    outputReads.increment();
  }

  /** A read through a generation's leaves opened {@code opened} of them and skipped the others. */
  void leafRead(int opened, int skipped) {
    leafReads.increment();
    leafFilesOpened.add(opened);
    leafFilesSkipped.add(skipped);
  }

  long leafFilesOpened() {
    return leafFilesOpened.sum();
  }

  long leafFilesSkipped() {
    return leafFilesSkipped.sum();
  }

  /** A warm hand-over loaded {@code warmed}. */
  void warmed(OutputWarmer.Warmed warmed) {
    warmHandOvers.increment();
    warmedBlocks.add(warmed.blocks());
    warmedBytes.add(warmed.bytes());
  }

  long warmHandOvers() {
    return warmHandOvers.sum();
  }

  long warmedBlocks() {
    return warmedBlocks.sum();
  }

  long warmedBytes() {
    return warmedBytes.sum();
  }

  void pass(Pass pass) {
    lastPass = pass;
  }

  long bufferedCompactions() {
    return buffered.sum();
  }

  long unbufferedCompactions() {
    return notBuffered.sum();
  }

  String lastNotBuffered() {
    return lastNotBuffered;
  }

  long retiredFor(GenerationTrim.Reason reason) {
    return retired.get(reason).sum();
  }

  long retiredUnbuffered() {
    return retiredUnbuffered.sum();
  }

  /** Reads that used a generation's leaves. */
  long leafReads() {
    return leafReads.sum();
  }

  /** Reads that had to use a generation's output (a changed row). */
  long outputReads() {
    return outputReads.sum();
  }

  Pass lastPass() {
    return lastPass;
  }
}
