package dev.cairn.table.cache;

import dev.cairn.fs.ReadableFile;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.concurrent.atomic.LongAdder;

/**
 * The open-file bound of the tables counting into one {@link TableCacheBudget}: most descriptors
 * their files ({@link ReopeningFile}) hold at once, over every database sharing the budget. When
 * a file opens past the bound, the descriptors of files no read is using close, the files that
 * opened longest ago first, each read since the last pass spared once (second chance); a table
 * keeps its index and filter meanwhile and opens its file again on its next read.
 *
 * <p>Files in use when the bound is passed stay open until the read using them ends ({@link
 * #trimIfOver}), so the bound holds to within the reads in flight. Thread-safe: one lock over the
 * set of open files, taken by each open and each close of a file for good and by a read's end
 * while over the bound; under it, each file's monitor is taken only to look at its descriptor
 * (no file opens or closes under it), and the descriptors taken away close after the lock is
 * released.
 */
final class OpenFiles {
  private static final System.Logger LOG = System.getLogger(OpenFiles.class.getName());

  private final int max;
  private final Object lock = new Object();
  /** The files whose descriptor is open, in the order they opened (guarded by {@code lock}). */
  private final LinkedHashSet<ReopeningFile> open = new LinkedHashSet<>();
  private volatile int count;
  private final LongAdder reopens = new LongAdder();
  private final LongAdder closedForTheBound = new LongAdder();

  OpenFiles(int max) {
    if (max < 1) {
      throw new IllegalArgumentException("at least one file may be open: " + max);
    }
    this.max = max;
  }

  /** Descriptors open now. */
  int count() {
    return count;
  }

  int max() {
    return max;
  }

  /** Files opened again after the bound closed them. */
  long reopens() {
    return reopens.sum();
  }

  /** Descriptors the bound closed. */
  long closedForTheBound() {
    return closedForTheBound.sum();
  }

  /** {@code f} opened its descriptor for the first time. */
  void opened(ReopeningFile f) {
    trim(f);
  }

  /** {@code f} opened its descriptor again after the bound closed it. */
  void reopened(ReopeningFile f) {
    reopens.increment();
    trim(f);
  }

  /** {@code f} closed its descriptor for good. */
  void closed(ReopeningFile f) {
    synchronized (lock) {
      open.remove(f);
      count = open.size();
    }
  }

  /**
   * Closes idle descriptors while more than the bound are open: after a read ends, a file kept
   * open past the bound for it (or for another read) may close now. A volatile read when within
   * the bound.
   */
  void trimIfOver() {
    if (count > max) {
      trim(null);
    }
  }

  /** Adds {@code f} (unless null), then closes idle descriptors over the bound, sparing {@code f}. */
  private void trim(ReopeningFile f) {
    List<ReadableFile> toClose = new ArrayList<>();
    synchronized (lock) {
      if (f != null) {
        open.add(f);
        // Published before any busy file is passed over: a read ending on one after this sees
        // the bound passed and trims behind this pass (trimIfOver), so no file stays over it.
        count = open.size();
      }
      // Each file is visited at most twice: once to clear its mark, once to close it.
      for (int visits = 2 * open.size(); open.size() > max && visits > 0; visits--) {
        Iterator<ReopeningFile> it = open.iterator();
        ReopeningFile oldest = it.next();
        it.remove();
        if (oldest == f || oldest.clearUsed()) {
          open.add(oldest); // spared: to the back of the order
          continue;
        }
        ReadableFile descriptor = oldest.detachIfIdle();
        if (descriptor != null) {
          toClose.add(descriptor);
        } else if (oldest.isOpen()) {
          open.add(oldest); // a read is using it: stays open until a later pass
        }
      }
      count = open.size();
    }
    closedForTheBound.add(toClose.size());
    for (ReadableFile d : toClose) {
      try {
        d.close();
      } catch (IOException | RuntimeException e) {
        // Only read: nothing is lost, and the read that opened a file must not fail for another.
        LOG.log(System.Logger.Level.WARNING, "closing a table file for the open-file bound: " + e);
      }
    }
  }
}
