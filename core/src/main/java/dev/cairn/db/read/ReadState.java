package dev.cairn.db.read;

import dev.cairn.CairnIterator;
import dev.cairn.ReadOptions;
import dev.cairn.VerifyProgress;
import dev.cairn.db.base.TableIterators;
import dev.cairn.fs.IoTag;
import dev.cairn.iter.ConcatenatingIterator;
import dev.cairn.iter.DbIterator;
import dev.cairn.iter.InternalIterator;
import dev.cairn.iter.MergingIterator;
import dev.cairn.iter.SequenceBoundIterator;
import dev.cairn.iter.StoredValues;
import dev.cairn.key.LookupResult;
import dev.cairn.key.MergeOperands;
import dev.cairn.key.Merger;
import dev.cairn.key.RangeTombstones;
import dev.cairn.memtable.MemTable;
import dev.cairn.table.LookupKey;
import dev.cairn.table.cache.TableCache;
import dev.cairn.table.cache.TableHandle;
import dev.cairn.version.FileMetaData;
import dev.cairn.version.Version;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * What one read sees: the memtables (newest first) and a referenced version, at one sequence.
 * Closing it (or the iterator made from it) releases the version, which lets obsolete files go.
 */
public final class ReadState implements AutoCloseable {
  private final TableCache tables;
  /** Counts where point reads end and the blocks they read, by level. */
  private final PointReads reads;
  /** Level files iterators may read from the compaction buffer instead. */
  private final BufferScans scans;
  private final Merger merger;
  private final List<MemTable> memtables;
  private final Version version;
  private final long sequence;
  private final AtomicBoolean released = new AtomicBoolean();

  public ReadState(TableCache tables, PointReads reads, BufferScans scans, Merger merger, List<MemTable> memtables,
      Version version, long sequence) {
    this.tables = tables;
    this.reads = reads;
    this.scans = scans;
    this.merger = merger;
    this.memtables = memtables;
    this.version = version;
    this.sequence = sequence;
  }

  public byte[] get(byte[] key, boolean fillCache) {
    return get(tables, reads, merger, memtables, version, sequence, key, fillCache);
  }

  /**
   * The value of {@code key} at {@code sequence} in {@code memtables} (newest first) and then
   * {@code version}, or null: the newest value or tombstone found, with the merge operands above
   * it merged onto it by {@code merger}. Requires: {@code version} referenced for the call.
   */
  public static byte[] get(TableCache tables, PointReads reads, Merger merger, List<MemTable> memtables,
      Version version, long sequence, byte[] key, boolean fillCache) {
    MergeOperands operands = new MergeOperands();
    for (MemTable m : memtables) {
      LookupResult r = m.get(key, sequence, operands);
      if (r.isDecided()) {
        return operands.resolve(merger, key, r.value());
      }
    }
    LookupKey lookup = new LookupKey(key, sequence, operands);
    byte[] value = VersionLookup.get(tables, version, lookup, fillCache, reads).value();
    if (lookup.blockReads() > 0) {
      reads.blockReadTime(lookup.blockReadNanos());
    }
    return operands.resolve(merger, key, value);
  }

  /** Hands this state's references to the returned iterator. */
  public CairnIterator iterator(ReadOptions options) {
    return iterator(options, null);
  }

  /**
   * Hands this state's references to the returned iterator, which reads values through {@code
   * storedValues} (null: as stored).
   */
  public CairnIterator iterator(ReadOptions options, StoredValues storedValues) {
    List<InternalIterator> children = new ArrayList<>();
    RangeTombstones tombstones;
    try {
      tombstones = rangeTombstones(); // may open tables, and fail on a damaged one
      for (MemTable m : memtables) {
        children.add(m.iterator());
      }
      boolean fill = options.fillCache();
      // With range tombstones, each table and level tells the merge how new its entries are at
      // most, so that a tombstone newer than all of them skips them wholesale (DbIterator).
      boolean bound = !tombstones.isEmpty();
      for (FileMetaData f : version.files(0)) {
        InternalIterator table = TableIterators.open(tables, f, fill, IoTag.USER_READ);
        children.add(bound ? new SequenceBoundIterator(table, f.largestSequence()) : table);
      }
      for (int level = 1; level < version.numLevels(); level++) {
        List<FileMetaData> files = version.files(level);
        if (files.isEmpty()) {
          continue;
        }
        InternalIterator run = new ConcatenatingIterator<>(files, FileMetaData::largest,
            scans.opener(tables, version, level, fill));
        children.add(bound ? new SequenceBoundIterator(run, version.largestSequence(level)) : run);
      }
    } catch (RuntimeException e) {
      children.forEach(InternalIterator::close);
      close();
      throw e;
    }
    return new DbIterator(new MergingIterator(children), sequence, options.lowerBound(),
        options.upperBound(), storedValues, merger, this::close).withRangeTombstones(tombstones);
  }

  /** The range tombstones of the memtables and the version's tables, in one set. */
  private RangeTombstones rangeTombstones() {
    List<RangeTombstones> sets = new ArrayList<>();
    for (MemTable m : memtables) {
      if (!m.rangeTombstones().isEmpty()) {
        sets.add(m.rangeTombstones());
      }
    }
    RangeTombstones inTables = !version.mayHoldRangeTombstones() ? RangeTombstones.EMPTY
        : version.rangeTombstones(files -> TableIterators.rangeTombstones(tables, files));
    if (!inTables.isEmpty()) {
      sets.add(inTables);
    }
    return sets.isEmpty() ? RangeTombstones.EMPTY : sets.size() == 1 ? sets.get(0) : RangeTombstones.union(sets);
  }

  /**
   * Verifies the checksum of every block of every table of the pinned version, the compaction
   * buffers' included (each file once), telling {@code progress} after each.
   */
  public int verifyTables(VerifyProgress progress) {
    Map<Long, FileMetaData> files = new LinkedHashMap<>();
    for (int level = 0; level < version.numLevels(); level++) {
      version.files(level).forEach(f -> files.putIfAbsent(f.number(), f));
      version.bufferRuns(level).forEach(t -> t.allFiles().forEach(f -> files.putIfAbsent(f.number(), f)));
    }
    int done = 0;
    long bytes = 0;
    for (FileMetaData f : files.values()) {
      try (TableHandle h = TableIterators.acquire(tables, f)) {
        h.reader().verifyChecksums();
      }
      bytes += f.totalBytes();
      progress.tableVerified(++done, files.size(), bytes);
    }
    return files.size();
  }

  @Override
  public void close() {
    if (released.compareAndSet(false, true)) {
      version.unref();
    }
  }
}
