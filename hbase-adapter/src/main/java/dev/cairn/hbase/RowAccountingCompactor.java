package dev.cairn.hbase;

import java.io.IOException;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hbase.regionserver.CellSink;
import org.apache.hadoop.hbase.regionserver.HStore;
import org.apache.hadoop.hbase.regionserver.InternalScanner;
import org.apache.hadoop.hbase.regionserver.ScanInfo;
import org.apache.hadoop.hbase.regionserver.ScanType;
import org.apache.hadoop.hbase.regionserver.StoreFileScanner;
import org.apache.hadoop.hbase.regionserver.StoreScanner;
import org.apache.hadoop.hbase.regionserver.compactions.CompactionProgress;
import org.apache.hadoop.hbase.regionserver.compactions.CompactionRequestImpl;
import org.apache.hadoop.hbase.regionserver.compactions.DefaultCompactor;
import org.apache.hadoop.hbase.regionserver.throttle.ThroughputController;
import org.apache.hadoop.hbase.security.User;

/**
 * HBase's default compactor, unchanged in what it writes, with a {@link CompactionAudit} beside
 * each compaction: it finds the rows the compaction changes, which the store's buffer needs
 * before it may let the compaction's inputs answer reads in place of its output. The audit rides
 * on the compaction's own thread (HBase calls {@code createScanner} and {@code performCompaction}
 * from inside {@code compact}), so concurrent compactions of one store keep theirs apart.
 */
final class RowAccountingCompactor extends DefaultCompactor {
  private static final ThreadLocal<CompactionAudit> CURRENT = new ThreadLocal<>();

  private final CairnBufferStoreEngine engine;

  RowAccountingCompactor(Configuration conf, HStore store, CairnBufferStoreEngine engine) {
    super(conf, store);
    this.engine = engine;
  }

  @Override
  public List<Path> compact(CompactionRequestImpl request, ThroughputController throughputController, User user)
      throws IOException {
    if (!engine.buffering()) {
      return super.compact(request, throughputController, user);
    }
    CompactionAudit audit = new CompactionAudit(request.getFiles(), store.getComparator(),
        engine.options().maxChangedRows());
    CURRENT.set(audit);
    try {
      List<Path> outputs = super.compact(request, throughputController, user);
      engine.audited(outputs, audit);
      return outputs;
    } finally {
      CURRENT.remove();
    }
  }

  @Override
  protected InternalScanner createScanner(HStore store, ScanInfo scanInfo, List<StoreFileScanner> scanners,
      ScanType scanType, long smallestReadPoint, long earliestPutTs) throws IOException {
    CompactionAudit audit = CURRENT.get();
    if (audit == null) {
      return super.createScanner(store, scanInfo, scanners, scanType, smallestReadPoint, earliestPutTs);
    }
    return new StoreScanner(store, scanInfo, audit.wrap(scanners), scanType, smallestReadPoint, earliestPutTs);
  }

  @Override
  protected boolean performCompaction(FileDetails fd, InternalScanner scanner, CellSink writer, long smallestReadPoint,
      boolean cleanSeqId, ThroughputController throughputController, CompactionRequestImpl request,
      CompactionProgress progress) throws IOException {
    CompactionAudit audit = CURRENT.get();
    if (audit == null) {
      return super.performCompaction(fd, scanner, writer, smallestReadPoint, cleanSeqId, throughputController,
          request, progress);
    }
    boolean finished = super.performCompaction(fd, scanner, audit.sink(writer), smallestReadPoint, cleanSeqId,
        throughputController, request, progress);
    if (finished) {
      audit.finishMerge(); // before the scanners close: their positions tell what was not read
    }
    return finished;
  }
}
