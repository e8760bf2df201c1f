package dev.cairn.db.buffer;

import dev.cairn.Stats;
import dev.cairn.db.read.BufferScans;
import dev.cairn.db.read.PointReads;
import dev.cairn.model.BufferRun;
import dev.cairn.version.FileMetaData;
import dev.cairn.version.Version;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * What the buffer has done since the database opened, and its figures for {@link Stats.Buffer}.
 * Installs count under the engine mutex, the trim pass on its own thread; the counts are atomic
 * so that a stats call reads them from either.
 */
final class BufferCounters {
  final AtomicLong appendedFiles = new AtomicLong();
  final AtomicLong coldArrivalsLeftOut = new AtomicLong();
  final AtomicLong trimmedFiles = new AtomicLong();
  final AtomicLong shadowedFiles = new AtomicLong();
  final AtomicLong evictedFiles = new AtomicLong();
  final AtomicLong trimPasses = new AtomicLong();
  final AtomicLong freezes = new AtomicLong();

  /**
   * Requires: mutex held. The buffer's figures over {@code v}.
   *
   * @param frozenLevels the levels whose buffer is frozen now
   */
  Stats.Buffer figures(Version v, List<Integer> frozenLevels, PartRewriter rewriter,
      PointReads reads, BufferScans scans, MissCostMeter missCost) {
    BufferExtraSpace extra = BufferExtraSpace.of(v);
    int runs = 0;
    int markers = 0;
    for (int level = 0; level < v.numLevels(); level++) {
      for (BufferRun<FileMetaData> run : v.bufferRuns(level)) {
        runs++;
        markers += run.removedMarkers();
      }
    }
    return new Stats.Buffer(true, extra.bytes(), extra.files(), runs, markers, extra.bytesByLevel(),
        appendedFiles.get(), coldArrivalsLeftOut.get(), trimmedFiles.get(), shadowedFiles.get(), evictedFiles.get(),
        rewriter.rewrittenFiles(), rewriter.freedBytes(), trimPasses.get(), freezes.get(),
        List.copyOf(frozenLevels), reads.servedTotal(), scans.scannedFromBuffer(), reads.byLevel(v.numLevels()),
        missCost.cost().meanMicros(), missCost.boundFraction());
  }
}
