package dev.cairn.db.base;

import dev.cairn.cache.BlockCache;
import dev.cairn.Options;
import dev.cairn.compaction.CompactionPlan;
import dev.cairn.compaction.OutputCuts;
import dev.cairn.fs.FileNames;
import dev.cairn.fs.FileSystem;
import dev.cairn.fs.IoTag;
import dev.cairn.fs.WritableFile;
import dev.cairn.key.InternalKey;
import dev.cairn.key.RangeTombstone;
import dev.cairn.key.RangeTombstones;
import dev.cairn.table.TableBuilder;
import dev.cairn.table.TableOptions;
import dev.cairn.table.TableSummary;
import dev.cairn.version.FileMetaData;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.List;
import java.util.function.LongSupplier;

/**
 * Writes a sorted stream of internal entries into one or more new tables, cutting a new table when
 * the current one reaches the target size or when the caller's {@link CutPolicy} asks (grandparent
 * overlap). A table is never cut between two entries of the same user key: if one user key's
 * versions were split across files, the files of a level would overlap in user keys, and a point
 * lookup that picks one file by key range could miss the newer version.
 *
 * <p><b>Range tombstones</b> ({@link #rangeTombstones}) go into the table open when the stream
 * reaches their start, and the table's bounds span them. At a cut after user key {@code b}, a
 * tombstone that reaches past {@code b} is split at {@code b}'s successor ({@code b} + a zero
 * byte, {@link RangeTombstone#successor}): the finished table keeps the part up to and including
 * {@code b}, the next table the rest, so that the tables' bounds neither overlap nor leave a gap
 * the tombstone covered. A stream of tombstones without entries still makes a table.
 *
 * <p>Each finished table is synced and closed; {@link #finish()} also syncs the directory, so
 * that the tables are durable before a manifest edit names them.
 */
public final class TableOutput implements AutoCloseable {
  /** Decides whether to start a new table before {@code internalKey}. */
  public interface CutPolicy {
    /**
     * Asked once per new user key. {@code currentBytes} is the open table's estimated size, or 0
     * when a new table starts at this key anyway (none open, or the open one is full).
     */
    boolean shouldCutBefore(byte[] internalKey, long currentBytes);

    /** Cuts at the target size only (a flush). */
    CutPolicy NONE = (internalKey, currentBytes) -> false;

    /**
     * Cuts one output stream of {@code plan} at bounded and (with {@link
     * Options#alignCompactionOutputs()}) aligned grandparent overlap ({@link OutputCuts}). A new
     * policy per stream: it follows the stream's keys.
     */
    static CutPolicy grandparents(CompactionPlan plan, Options options) {
      OutputCuts cuts = new OutputCuts(plan.grandparents(), plan.outputLimits(),
          options.alignCompactionOutputs() ? OutputCuts.DEFAULT_ALIGN_FRACTION : 0);
      return (internalKey, currentBytes) ->
          cuts.cutBefore(internalKey, internalKey.length - InternalKey.TRAILER_BYTES, currentBytes);
    }
  }

  private final FileSystem fs;
  private final Path dir;
  private final TableOptions tableOptions;
  private final IoTag tag;
  private final long targetFileBytes;
  private final LongSupplier newFileNumber;
  private final CutPolicy cutPolicy;
  private final List<FileMetaData> finished = new ArrayList<>();

  private WritableFile file;
  private TableBuilder builder;
  private long fileNumber;
  private byte[] lastKey;
  /** Range tombstones the stream has not reached yet, by start. */
  private final ArrayDeque<RangeTombstone> pendingTombstones = new ArrayDeque<>();
  /** Range tombstones of the open table, written when it is finished. */
  private final List<RangeTombstone> tableTombstones = new ArrayList<>();
  private long rawDataBytes;
  private long storedDataBytes;

  /** Where written data blocks go as they are written, or null. */
  private BlockCache warmCache;

  /**
   * @param newFileNumber allocates a file number and registers it as a pending output, so that
   *     obsolete-file collection leaves it alone
   */
  public TableOutput(FileSystem fs, Path dir, TableOptions tableOptions, IoTag tag, long targetFileBytes,
      LongSupplier newFileNumber, CutPolicy cutPolicy) {
    this.fs = fs;
    this.dir = dir;
    this.tableOptions = tableOptions;
    this.tag = tag;
    this.targetFileBytes = targetFileBytes;
    this.newFileNumber = newFileNumber;
    this.cutPolicy = cutPolicy;
  }

  /**
   * Inserts every data block written from now on into {@code cache} at its address, as it is
   * written ({@link dev.cairn.Options#flushCaching()}).
   */
  public TableOutput warming(BlockCache cache) {
    this.warmCache = cache;
    return this;
  }

  /** Range tombstones to write with the entries; called before the first {@link #add}. */
  public TableOutput rangeTombstones(RangeTombstones tombstones) {
    pendingTombstones.addAll(tombstones.all()); // by start
    return this;
  }

  public void add(byte[] internalKey, byte[] value) throws IOException {
    boolean sameUserKey = lastKey != null && InternalKey.compareUserKeys(lastKey, internalKey) == 0;
    // The policy is asked only where a cut is allowed (a new user key), so a cut it asks for is
    // never dropped; its position depends on user keys alone, so skipping versions loses nothing.
    if (!sameUserKey) {
      boolean full = builder != null && builder.estimatedSize() >= targetFileBytes;
      long currentBytes = builder == null || full ? 0 : builder.estimatedSize();
      boolean policyCut = cutPolicy.shouldCutBefore(internalKey, currentBytes);
      if (builder != null && (full || policyCut)) {
        finishCurrent();
      }
    }
    if (builder == null) {
      startTable();
    }
    takeTombstonesFrom(internalKey, internalKey.length - InternalKey.TRAILER_BYTES);
    builder.add(internalKey, value);
    lastKey = internalKey;
  }

  private void startTable() throws IOException {
    fileNumber = newFileNumber.getAsLong();
    file = fs.create(FileNames.tablePath(dir, fileNumber), tag);
    builder = new TableBuilder(file, tableOptions);
    if (warmCache != null) {
      long number = fileNumber;
      builder.onDataBlock((offset, contents, length) ->
          warmCache.insertWritten(number, offset, ByteBuffer.wrap(contents, 0, length)));
    }
  }

  /** Moves the pending tombstones that start at or before the first {@code userKeyLength} bytes of {@code key} into the open table. */
  private void takeTombstonesFrom(byte[] key, int userKeyLength) {
    while (!pendingTombstones.isEmpty()
        && Arrays.compareUnsigned(pendingTombstones.peekFirst().from(), 0, pendingTombstones.peekFirst().from().length,
            key, 0, userKeyLength) <= 0) {
      tableTombstones.add(pendingTombstones.pollFirst());
    }
  }

  /**
   * Finishes the open table. Its tombstones that reach past its last user key are split there,
   * the rest going back to the front of the pending ones (they start before any still pending).
   */
  private void finishCurrent() throws IOException {
    finishCurrent(false);
  }

  /** @param last whether the stream has ended: the tombstones stay whole */
  private void finishCurrent(boolean last) throws IOException {
    if (!last && lastKey != null && !tableTombstones.isEmpty()) {
      byte[] next = RangeTombstone.successor(InternalKey.userKey(lastKey));
      List<RangeTombstone> rest = new ArrayList<>();
      for (RangeTombstone t : tableTombstones) {
        RangeTombstone kept = t.clip(null, next);
        if (kept != null) {
          builder.addRangeTombstone(kept);
        }
        RangeTombstone after = t.clip(next, null);
        if (after != null) {
          rest.add(after);
        }
      }
      for (int i = rest.size() - 1; i >= 0; i--) {
        pendingTombstones.addFirst(rest.get(i));
      }
    } else {
      tableTombstones.forEach(builder::addRangeTombstone);
    }
    tableTombstones.clear();
    lastKey = null;
    TableSummary s = builder.finish();
    rawDataBytes += builder.rawDataBytes();
    storedDataBytes += builder.storedDataBytes();
    file.sync();
    file.close();
    finished.add(new FileMetaData(fileNumber, s.footerOffset(), s.fileSize(), s.fileSize(),
        s.smallest(), s.largest(), s.entries(), s.smallestSequence(), s.largestSequence()));
    builder = null;
    file = null;
  }

  /** Data block bytes as built in the tables finished so far. */
  public long rawDataBytes() {
    return rawDataBytes;
  }

  /** Data block bytes as stored in the tables finished so far. */
  public long storedDataBytes() {
    return storedDataBytes;
  }

  /** Finishes the last table and syncs the directory; returns every table written. */
  public List<FileMetaData> finish() throws IOException {
    if (!pendingTombstones.isEmpty()) {
      // Past the last entry: the rest go into the last table, whole.
      if (builder == null) {
        startTable();
      }
      tableTombstones.addAll(pendingTombstones);
      pendingTombstones.clear();
    }
    if (builder != null) {
      finishCurrent(true);
    }
    if (!finished.isEmpty()) {
      fs.syncDirectory(dir);
    }
    return List.copyOf(finished);
  }

  /** Tables finished so far (after a failure the caller deletes them). */
  List<FileMetaData> finishedSoFar() {
    return List.copyOf(finished);
  }

  /** Abandons an unfinished table (on failure); finished tables are left for the caller. */
  @Override
  public void close() throws IOException {
    if (builder != null) {
      builder.abandon();
      builder = null;
      WritableFile f = file;
      file = null;
      f.close();
    }
  }
}
