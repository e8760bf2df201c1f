package dev.cairn;

import dev.cairn.Stats.BufferLevelReads;
import dev.cairn.Stats.FlushCaching;
import dev.cairn.Stats.Latency;
import dev.cairn.Stats.LevelReads;
import dev.cairn.Stats.LevelStats;

/** Renders {@link Stats} as the fixed-layout table its {@code toString} returns. */
final class StatsText {
  private StatsText() {}

  static String render(Stats s) {
    StringBuilder sb = new StringBuilder();
    sb.append("Level  Files      Size(MB)  Score  Read(MB)  Write(MB)  Dead(MB)\n");
    sb.append("-----  -----  ------------  -----  --------  ---------  --------\n");
    for (LevelStats l : s.levels()) {
      sb.append(String.format("L%-4d  %5d  %12.2f  %5.2f  %8.2f  %9.2f  %8.2f%n",
          l.level(), l.files(), mb(l.bytes()), l.score(), mb(l.bytesRead()), mb(l.bytesWritten()),
          mb(l.deadBytes())));
    }
    StringBuilder compressed = new StringBuilder();
    for (LevelStats l : s.levels()) {
      if (l.storedDataBytesWritten() != l.rawDataBytesWritten()) {
        compressed.append(String.format("%sL%d %.2f MB raw stored in %.2f MB (%.3f)", compressed.length() == 0 ? "" : ", ",
            l.level(), mb(l.rawDataBytesWritten()), mb(l.storedDataBytesWritten()), l.compressionRatio()));
      }
    }
    if (compressed.length() > 0) {
      sb.append("compressed data blocks ").append(compressed).append(" (written since open)\n");
    }
    sb.append(String.format("user bytes written     %12.2f MB%n", mb(s.writes().userBytesWritten())));
    sb.append(String.format("device bytes written   %12.2f MB (wal %.2f, flush %.2f, compaction %.2f, manifest %.2f)%n",
        mb(s.writes().deviceBytesWritten()), mb(s.writes().walBytesWritten()), mb(s.flush().bytesWritten()),
        mb(s.compaction().bytesWritten()), mb(s.manifest().bytesWritten())));
    sb.append(String.format("write amplification    %12.2f%n", s.writes().amplification()));
    sb.append(String.format("space amplification    %12.2f (%.2f MB of tables on disk, %.2f MB of them obsolete and waiting for deletion)%n",
        s.space().amplification(), mb(s.diskTableBytes()), mb(s.space().obsoleteTableBytes())));
    sb.append(String.format("block cache            %12.2f%% hits (%d hits, %d misses, %d inserts, %d evictions (%d while warm), %.2f of %.2f MB%s)%n",
        s.cache().hitRatio() * 100, s.cache().hits(), s.cache().misses(), s.cache().inserts(), s.cache().evictions(), s.cache().evictedWarm(),
        mb(s.cache().usedBytes()), mb(s.cache().capacityBytes()),
        s.cache().windowBytes() > 0 ? String.format(", window %.2f MB", mb(s.cache().windowBytes())) : ""));
    Stats.TableFiles t = s.tableCache();
    String bytesBound = t.byteCapacity() > 0 ? String.format(" (at most %.2f MB)", mb(t.byteCapacity())) : "";
    String files = String.format("%d of %d files open, %d reopened", t.openFiles(), t.capacity(), t.fileReopens());
    if (t.sharedBounds()) {
      sb.append(String.format("table cache            %d tables open, %d opens, %.2f MB of index and filter pinned;"
          + " with the databases sharing its bounds %d tables kept, %.2f MB pinned%s, %s%n",
          t.open(), t.opens(), mb(t.pinnedBytes()), t.boundTables(), mb(t.boundPinnedBytes()), bytesBound, files));
    } else {
      sb.append(String.format("table cache            %d tables open, %d opens, %.2f MB of index and filter pinned%s, %s%n",
          t.open(), t.opens(), mb(t.pinnedBytes()), bytesBound, files));
    }
    sb.append(String.format("stalls                 %12.3f s (%d slowdowns, %d stops)%n",
        s.stalls().totalMicros() / 1e6, s.stalls().slowdowns(), s.stalls().stops()));
    if (s.stalls().totalMicros() > 0) {
      sb.append(String.format("stalls by cause        pace %.3f s (%d), L0 stop %.3f s (%d), memtable stop %.3f s (%d)%n",
          s.stalls().slowdownMicros() / 1e6, s.stalls().slowdowns(), s.stalls().l0StopMicros() / 1e6, s.stalls().l0Stops(),
          s.stalls().memtableStopMicros() / 1e6, s.stalls().memtableStops()));
    }
    sb.append(String.format("flushes / compactions  %d / %d (%d trivial moves%s, %.3f s), %d running%n",
        s.flush().count(), s.compaction().completed(), s.compaction().trivialMoves(),
        (s.compaction().levelMoves() > 0 ? ", " + s.compaction().levelMoves() + " level moves" : "")
            + (s.compaction().idleDrains() > 0 ? ", " + s.compaction().idleDrains() + " idle drains" : ""),
        s.compaction().micros() / 1e6, s.compaction().running()));
    sb.append(compactionReadCalls(s));
    Stats.Compaction filter = s.compaction();
    if (filter.filterRemoved() + filter.filterChanged() + filter.filterDiscarded() > 0) {
      sb.append(String.format("compaction filter      %d removed, %d changed; %d compactions run again for a snapshot%n",
          filter.filterRemoved(), filter.filterChanged(), filter.filterDiscarded()));
    }
    if (filter.mergedOperands() > 0) {
      sb.append(String.format("merge operands         %d merged by compactions%n", filter.mergedOperands()));
    }
    if (filter.deletedTables() > 0) {
      sb.append(String.format("range-deleted tables   %d deleted without a rewrite (%.2f MB)%n", filter.deletedTables(),
          mb(filter.deletedBytes())));
    }
    if (s.flush().caching().mode() != Options.FlushCaching.NEVER) {
      FlushCaching c = s.flush().caching();
      sb.append(c.mode() == Options.FlushCaching.ALWAYS ? String.format("flush caching          always%n")
          : String.format("flush caching          adaptive: %s (recency %.2f, %d switches)%n",
              c.now() ? "on" : "off", c.recency(), c.switches()));
    }
    if (s.manifest().syncs() > 0) {
      sb.append(String.format("manifest syncs         %d, %.1f us each on average (the mutex released)%n",
          s.manifest().syncs(), (double) s.manifest().syncMicros() / s.manifest().syncs()));
    }
    sb.append(String.format("memtable               %.2f MB, %d immutable; %d snapshots; last sequence %d%n",
        mb(s.memtable().activeBytes()), s.memtable().immutables(), s.liveSnapshots(), s.lastSequence()));
    sb.append(latencyLine("get", s.latency().get())).append(latencyLine("put", s.latency().put()))
        .append(latencyLine("scan", s.latency().scan()));
    if (s.dlc() != null && s.dlc().enabled()) {
      sb.append(String.format("dlc                    %s load, client %.2f MB/s, limiter %.2f MB/s, %d delayed, %d part / %d full runs%n",
          s.dlc().load(), s.dlc().clientBytesPerSecond() / 1e6, s.dlc().limiterBytesPerSecond() / 1e6,
          s.dlc().delayedL0Compactions(), s.dlc().partRuns(), s.dlc().fullRuns()));
    }
    if (s.block() != null && s.block().enabled()) {
      sb.append(String.format("block compaction       %d appended / %d rewritten tables, %d dirty blocks, %.2f MB appended, %d filter rebuilds%n",
          s.block().appendedTables(), s.block().rewrittenTables(), s.block().dirtyBlocks(),
          mb(s.block().appendedBytes()), s.block().filterRebuilds()));
      for (Stats.Choices c : s.block().choices()) {
        sb.append(String.format("  into L%d %-5s %-17s %8d tables %12.2f MB, dirty ratio %.3f%n", c.level(),
            c.lastLevel() ? "last" : "upper", c.reason(), c.tables(), mb(c.targetBytes()), c.dirtyRatio()));
      }
    }
    if (s.buffer() != null && s.buffer().enabled()) {
      sb.append(String.format("compaction buffer      %12.2f MB in %d files, %d runs, %d removed markers; frozen %s%n",
          mb(s.buffer().bytes()), s.buffer().files(), s.buffer().runs(), s.buffer().removedMarkers(), s.buffer().frozenLevels()));
      sb.append(String.format("buffer traffic         %d appended, %d cold left out, %d trimmed, %d shadowed, %d evicted for space, %d rewritten (%.2f MB freed) (%d trim passes, %d freezes), %d gets served, %d files scanned from the buffer%n",
          s.buffer().appendedFiles(), s.buffer().coldArrivalsLeftOut(), s.buffer().trimmedFiles(), s.buffer().shadowedFiles(), s.buffer().evictedFiles(),
          s.buffer().rewrittenFiles(), mb(s.buffer().rewrittenBytes()), s.buffer().trimPasses(),
          s.buffer().freezes(), s.buffer().servedGets(), s.buffer().scannedFromBuffer()));
      sb.append(String.format("buffer bound           %.4f of the levels' bytes (a miss costs %s)%n", s.buffer().boundFraction(),
          Double.isNaN(s.buffer().missCostMicros()) ? "not yet measured" : String.format("%.1f us", s.buffer().missCostMicros())));
      for (int level = 0; level < s.buffer().readsByLevel().size(); level++) {
        BufferLevelReads r = s.buffer().readsByLevel().get(level);
        if (r.served() + r.stoppedAtMarker() + r.fellThrough() > 0) {
          sb.append(String.format("buffer reads L%-4d     %d served, %d stopped at a marker, %d through to the level%n",
              level, r.served(), r.stoppedAtMarker(), r.fellThrough()));
        }
      }
    }
    long blocksRead = s.reads().blockReads();
    if (blocksRead > 0) {
      sb.append(String.format("point-read misses      %d blocks read from the device, %.1f us each on average%n",
          blocksRead, s.reads().missMicros()));
    }
    for (int level = 0; level < s.reads().byLevel().size(); level++) {
      LevelReads r = s.reads().byLevel().get(level);
      if (r.answered() + r.blockReads() > 0) {
        sb.append(String.format("point reads L%-4d      %d answered, %d blocks read (%d from the buffer)%n",
            level, r.answered(), r.blockReads(), r.bufferBlockReads()));
      }
    }
    return sb.toString();
  }

  /**
   * The compactions' read calls by output level, and the bytes each read on average; empty when
   * none was counted.
   */
  private static String compactionReadCalls(Stats s) {
    StringBuilder levels = new StringBuilder();
    for (LevelStats l : s.levels()) {
      if (l.readCalls() > 0) {
        levels.append(String.format("%sL%d %d (%.1f KiB each)", levels.length() == 0 ? "" : ", ", l.level(),
            l.readCalls(), l.bytesRead() / 1024.0 / l.readCalls()));
      }
    }
    return levels.length() == 0 ? "" : "compaction read calls  " + levels + "\n";
  }

  private static String latencyLine(String name, Latency l) {
    return String.format("%-5s latency (us)      p50 %.1f  p99 %.1f  max %.1f  (%d ops)%n",
        name, l.p50Micros(), l.p99Micros(), l.maxMicros(), l.count());
  }

  private static double mb(long bytes) {
    return bytes / (1024.0 * 1024.0);
  }
}
