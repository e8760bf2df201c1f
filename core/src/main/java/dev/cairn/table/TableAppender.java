package dev.cairn.table;

import dev.cairn.fs.IoTag;
import dev.cairn.fs.ReadableFile;
import dev.cairn.fs.WritableFile;
import dev.cairn.iter.InternalIterator;
import dev.cairn.iter.ListIterator;
import dev.cairn.iter.MergingIterator;
import dev.cairn.key.InternalKey;
import dev.cairn.key.InternalKeyComparator;
import dev.cairn.key.RangeTombstones;
import dev.cairn.table.block.Block;
import dev.cairn.table.block.BlockBuilder;
import dev.cairn.table.block.BlockHandle;
import dev.cairn.table.block.BlockIterator;
import dev.cairn.table.block.BlockTrailer;
import dev.cairn.table.codec.BlockCompressor;
import dev.cairn.table.filter.BloomHash;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;

/**
 * Block compaction of one table (BlockDB Alg. 1 and 2; docs/format.md section 8): merges the
 * incoming entries into the table's dirty blocks only, and appends the merged blocks, a new
 * index, filter, properties and footer at the file's tail. Clean blocks keep their handles (and
 * so their block-cache entries); nothing before the old valid length is touched, so the old
 * footer stays readable until the manifest names the new one.
 *
 * <p>The new index walks the old one in key order: a clean block keeps its separator and handle;
 * a run of dirty blocks is replaced by the blocks its merge produced, the last of which takes the
 * run's last separator (every merged key is at most that separator and the next clean block's
 * keys are above it); incoming keys past the table's last key join the last run, or form their
 * own. Inside a run, separators are shortened as {@link TableBuilder} does.
 *
 * <p>The filter: incoming user keys are ORed into a copy of the old filter of the same size
 * (space reserved when the table was built, {@link TableOptions#filterReserve()}) while its
 * estimated false-positive rate stays at or below the given maximum; past it, the filter is
 * rebuilt from every key the new index references (clean blocks are read for that), again with
 * the reserve.
 *
 * <p>New blocks are stored as {@link TableOptions#compression()} says, whatever the clean ones
 * were stored as; the new footer is format version 2 when either may be compressed.
 *
 * <p>The appender reads the table without filling the block cache, and puts none of the blocks
 * it writes there: an append that is discarded (or torn by a crash) before its footer is
 * installed has its offsets written again by the next append, and the cache is keyed by file and
 * offset alone ({@code TableReader.acquireDataBlock} trusts a compressed block found there).
 *
 * <p>Not thread-safe; one appender per table at a time (the compaction claim guarantees it).
 */
public final class TableAppender {
  private static final InternalKeyComparator CMP = InternalKeyComparator.INSTANCE;

  /**
   * What an append produced.
   *
   * @param summary the new footer's table; null when every entry was dropped (delete the table)
   * @param validBytes bytes the new footer references (blocks, index, filter, properties, footer)
   * @param dirtyBlocks old blocks merged and left as garbage
   * @param newBlocks blocks written
   * @param appendedBytes bytes written after the old valid length
   * @param filterRebuilt whether the filter was rebuilt rather than ORed into
   * @param rawDataBytes the new data blocks' bytes as built
   * @param storedDataBytes the new data blocks' bytes as stored (trailers excluded)
   */
  public record Result(TableSummary summary, long validBytes, long dirtyBlocks, long newBlocks,
      long appendedBytes, boolean filterRebuilt, long rawDataBytes, long storedDataBytes) {}

  private final TableReader reader;
  private final ReadableFile file;
  private final WritableFile out;
  private final TableOptions options;
  private final double maxFilterFpRate;
  private final UnaryOperator<InternalIterator> dropRules;
  private final IoTag readTag;
  private final BlockCompressor compressor;

  private final TableIndex oldIndex;
  private final BlockBuilder dataBlock;
  private final BlockBuilder indexBlock = new BlockBuilder(1, CMP, 1024);
  private final List<Long> newKeyHashes = new ArrayList<>();
  private final long startOffset;
  private BlockHandle pendingHandle;
  private byte[] lastKey;
  private byte[] lastUserKey;
  private byte[] firstIndexedKey;
  private byte[] lastIndexedKey; // null when the last index entry so far is a clean block
  private int lastCleanIndexed = -1;
  private long dataBlocks;
  private long dataBytes;
  private long newBlocks;
  private long rawDataBytes;
  private long storedDataBytes;
  private final EntryTotals added = new EntryTotals();
  private final EntryTotals removed = new EntryTotals();

  /** Range tombstones arriving with the incoming entries ({@link #append(List, RangeTombstones)}). */
  private RangeTombstones incomingTombstones = RangeTombstones.EMPTY;

  /**
   * @param reader the table at its current (manifest) footer
   * @param file a readable handle on the same file, for dirty-block reads
   * @param out the file opened for append at the manifest's total length (a torn tail of an
   *     earlier failed append is cut there)
   * @param dropRules wraps a merged stream with compaction's drop rules (snapshots, tombstones)
   */
  public TableAppender(TableReader reader, ReadableFile file, WritableFile out, TableOptions options,
      double maxFilterFpRate, UnaryOperator<InternalIterator> dropRules, IoTag readTag) {
    this.reader = reader;
    this.file = file;
    this.out = out;
    this.options = options;
    this.maxFilterFpRate = maxFilterFpRate;
    this.dropRules = dropRules;
    this.readTag = readTag;
    this.oldIndex = reader.index();
    this.dataBlock = new BlockBuilder(options.restartInterval(), CMP, options.blockBytes());
    this.startOffset = out.size();
    this.compressor = BlockCompressor.of(options.compression());
  }

  /**
   * How many blocks incoming user keys (ascending) make dirty (Alg. 3), from the index alone:
   * the selective rule's input. The append itself may merge a few more neighbours.
   */
  public static long countDirtyBlocks(TableReader reader, List<byte[]> userKeys) {
    return countDirtyBlocks(reader, userKeys, RangeTombstones.EMPTY);
  }

  /** As above, with the blocks under incoming range tombstones. */
  public static long countDirtyBlocks(TableReader reader, List<byte[]> userKeys, RangeTombstones tombstones) {
    return DirtyBlocks.countFromIndex(reader, userKeys, tombstones);
  }

  /** Data blocks in the reader's index. */
  public static long dataBlocks(TableReader reader) {
    return reader.index().size();
  }

  /**
   * Merges {@code incoming} (internal entries, strictly ascending) into the table and appends the
   * result; flushes {@code out} (the caller syncs and closes it).
   */
  public Result append(List<Map.Entry<byte[], byte[]>> incoming) throws IOException {
    return append(incoming, RangeTombstones.EMPTY);
  }

  /**
   * As above, with incoming range tombstones: the blocks under them are merged (their covered
   * entries dropped by the drop rules, which must know the tombstones), and the new footer's
   * range-deletion block holds the table's tombstones and these. Tombstones are never dropped
   * here, even at the bottom: a clean block may still hold what the table's own ones cover.
   */
  public Result append(List<Map.Entry<byte[], byte[]>> incoming, RangeTombstones tombstones) throws IOException {
    this.incomingTombstones = tombstones;
    try {
      return appendAll(incoming);
    } finally {
      compressor.close();
    }
  }

  private Result appendAll(List<Map.Entry<byte[], byte[]>> incoming) throws IOException {
    List<byte[]> userKeys = new ArrayList<>(incoming.size());
    for (Map.Entry<byte[], byte[]> e : incoming) {
      userKeys.add(InternalKey.userKey(e.getKey()));
    }
    int n = oldIndex.size();
    DirtyBlocks dirty = DirtyBlocks.find(reader, file, readTag, userKeys, incomingTombstones,
        (i, block) -> besideBlock(block, incoming.subList(entriesUpTo(incoming, i - 1), entriesUpTo(incoming, i))));
    int next = 0; // first incoming entry not written yet
    for (int i = 0; i < n; i++) {
      if (!dirty.isDirty(i)) {
        emitClean(i);
        continue;
      }
      if (dirty.isBeside(i)) {
        int end = entriesUpTo(incoming, i);
        writeBeside(i, dirty.block(i), incoming.subList(next, end), i == n - 1);
        next = end;
        continue;
      }
      int first = i;
      while (i + 1 < n && dirty.isDirty(i + 1) && !dirty.isBeside(i + 1)) {
        i++;
      }
      boolean lastRun = i == n - 1;
      int end = next;
      if (lastRun) {
        end = incoming.size(); // keys past the table's end join its last run
      } else {
        while (end < incoming.size() && CMP.compare(incoming.get(end).getKey(), oldIndex.separator(i)) <= 0) {
          end++;
        }
      }
      List<Map.Entry<byte[], byte[]>> slice = incoming.subList(next, end);
      List<InternalIterator> sources = new ArrayList<>();
      sources.add(new ListIterator(slice));
      for (int b = first; b <= i; b++) {
        Block block = dirty.block(b);
        removed.addBlock(block);
        sources.add(block.internalKeyIterator());
      }
      writeRun(sources, lastRun ? null : oldIndex.separator(i));
      next = end;
    }
    if (next < incoming.size()) {
      writeRun(List.of(new ListIterator(incoming.subList(next, incoming.size()))), null);
    }
    long rewritten = dirty.dirtyCount() - dirty.besideCount();
    if (dataBlocks == 0 && reader.rangeTombstones().isEmpty() && incomingTombstones.isEmpty()) {
      return new Result(null, 0, rewritten, newBlocks, out.size() - startOffset, false, rawDataBytes,
          storedDataBytes);
    }
    return finish(rewritten);
  }

  /**
   * The end of the incoming entries that block {@code i}'s range covers: entries up to its
   * separator; for the last block, every entry (keys past the table's end join it). -1: none.
   */
  private int entriesUpTo(List<Map.Entry<byte[], byte[]>> incoming, int i) {
    if (i < 0) {
      return 0;
    }
    if (i == oldIndex.size() - 1) {
      return incoming.size();
    }
    byte[] separator = oldIndex.separator(i);
    int lo = 0;
    int hi = incoming.size();
    while (lo < hi) {
      int mid = (lo + hi) >>> 1;
      if (CMP.compare(incoming.get(mid).getKey(), separator) <= 0) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    return lo;
  }

  /**
   * The paper's special case (Alg. 1, lines 8-14): whether every incoming key of a lone dirty
   * block lies before its first user key or after its last one. Then the incoming keys form new
   * blocks of their own beside it and the block keeps its place: their user keys are disjoint
   * from the block's, and from its neighbours' (else the neighbours would be dirty too), so
   * nothing needs merging.
   */
  private static boolean besideBlock(Block block, List<Map.Entry<byte[], byte[]>> slice) {
    if (slice.isEmpty()) {
      return false;
    }
    byte[] firstIncoming = slice.get(0).getKey();
    byte[] lastIncoming = slice.get(slice.size() - 1).getKey();
    return InternalKey.compareUserKeys(lastIncoming, DirtyBlocks.firstKey(block)) < 0
        || InternalKey.compareUserKeys(firstIncoming, DirtyBlocks.lastKey(block)) > 0;
  }

  private void writeBeside(int i, Block block, List<Map.Entry<byte[], byte[]>> slice, boolean last)
      throws IOException {
    byte[] blockFirst = DirtyBlocks.firstKey(block);
    byte[] blockLast = DirtyBlocks.lastKey(block);
    if (InternalKey.compareUserKeys(slice.get(slice.size() - 1).getKey(), blockFirst) < 0) {
      writeRun(List.of(new ListIterator(slice)), null);
      emitClean(i, oldIndex.separator(i));
      lastIndexedKey = blockLast;
    } else {
      // Rule 1 of format.md section 8: the kept block's range now ends at its exact last key.
      emitClean(i, blockLast);
      lastIndexedKey = blockLast;
      writeRun(List.of(new ListIterator(slice)), last ? null : oldIndex.separator(i));
    }
  }

  private void emitClean(int i) {
    emitClean(i, oldIndex.separator(i));
  }

  private void emitClean(int i, byte[] separator) {
    BlockHandle h = oldIndex.handle(i);
    indexBlock.add(separator, h.encode());
    if (firstIndexedKey == null) {
      // Dirty blocks before it merged to nothing: its first key is the table's first now.
      firstIndexedKey = i == 0 ? reader.properties().smallest() : edgeKey(h, true);
    }
    lastIndexedKey = null;
    lastCleanIndexed = i;
    dataBlocks++;
    dataBytes += h.size() + BlockTrailer.SIZE;
  }

  /** The table's new largest key: the last written key, or the last clean block's last key. */
  private byte[] largestIndexedKey() {
    if (lastIndexedKey != null) {
      return lastIndexedKey;
    }
    return lastCleanIndexed == oldIndex.size() - 1
        ? reader.properties().largest()
        : edgeKey(oldIndex.handle(lastCleanIndexed), false);
  }

  /** First or last key of a clean block; read only when dirty neighbours merged to nothing. */
  private byte[] edgeKey(BlockHandle h, boolean first) {
    try (BlockRef ref = reader.acquireDataBlock(h, false, readTag);
        BlockIterator it = ref.block().internalKeyIterator()) {
      byte[] key = null;
      for (it.seekToFirst(); it.isValid(); it.next()) {
        key = it.key();
        if (first) {
          break;
        }
      }
      return key;
    }
  }

  private void writeRun(List<InternalIterator> sources, byte[] runSeparator) throws IOException {
    try (InternalIterator kept = dropRules.apply(new MergingIterator(sources))) {
      for (kept.seekToFirst(); kept.isValid(); kept.next()) {
        add(kept.key(), kept.value());
      }
    }
    flushBlock();
    if (pendingHandle != null) {
      indexBlock.add(runSeparator != null ? runSeparator : lastKey, pendingHandle.encode());
      pendingHandle = null;
    }
  }

  private void add(byte[] key, byte[] value) throws IOException {
    if (pendingHandle != null) {
      indexBlock.add(Separators.shortestSeparator(lastKey, key), pendingHandle.encode());
      pendingHandle = null;
    }
    byte[] user = InternalKey.userKey(key);
    if (lastUserKey == null || InternalKey.compareUserKeys(lastKey, key) != 0) {
      newKeyHashes.add(BloomHash.hash64(user));
    }
    if (firstIndexedKey == null) {
      firstIndexedKey = key;
    }
    lastIndexedKey = key;
    added.add(key, value);
    dataBlock.add(key, value);
    lastKey = key;
    lastUserKey = user;
    if (dataBlock.currentSizeEstimate() >= options.blockBytes()) {
      flushBlock();
    }
  }

  private void flushBlock() throws IOException {
    if (dataBlock.isEmpty()) {
      return;
    }
    int length = dataBlock.finishInPlace();
    pendingHandle = TableTail.writeBlock(out, dataBlock.array(), length, compressor);
    rawDataBytes += length;
    storedDataBytes += pendingHandle.size();
    dataBlock.reset();
    dataBlocks++;
    newBlocks++;
    dataBytes += pendingHandle.size() + BlockTrailer.SIZE;
  }

  private Result finish(long dirtyBlocks) throws IOException {
    byte[] index = indexBlock.finish();
    AppendedFilter filter = AppendedFilter.build(reader, file, options, maxFilterFpRate,
        newKeyHashes, ByteBuffer.wrap(index), startOffset, readTag);
    boolean rebuilt = filter != null && filter.rebuilt();
    long bitsPerKey = filter == null ? 0 : filter.bitsPerKey();
    TableProperties old = reader.properties();
    RangeTombstones ranges = incomingTombstones.isEmpty() ? reader.rangeTombstones()
        : RangeTombstones.union(List.of(reader.rangeTombstones(), incomingTombstones));
    int version = Footer.versionFor(reader.footer().mayHoldCompressedBlocks() || compressor.compresses(),
        !ranges.isEmpty());
    TableTail.Written tail = TableTail.write(out, filter == null ? null : filter.contents(), ranges, index, compressor,
        (indexBytes, filterBytes) -> new TableProperties(
            old.entries() - removed.entries + added.entries,
            old.deletions() - removed.deletions + added.deletions,
            // No data block left (everything merged away): bounds from the range tombstones alone.
            dataBlocks == 0 ? new byte[0] : firstIndexedKey, dataBlocks == 0 ? new byte[0] : largestIndexedKey(),
            Math.min(old.smallestSequence(), added.minSeq), Math.max(old.largestSequence(), added.maxSeq),
            old.rawKeyBytes() - removed.rawKeyBytes + added.rawKeyBytes,
            old.rawValueBytes() - removed.rawValueBytes + added.rawValueBytes,
            dataBlocks, dataBytes, indexBytes, filterBytes,
            bitsPerKey, System.currentTimeMillis(), TableProperties.CREATOR, old.extent() + 1),
        reader.footerOffset(), version);
    TableProperties props = tail.properties();
    long validBytes = dataBytes + props.indexBytes() + props.filterBytes() + tail.rangeDeletionBytes()
        + tail.propertiesBytes() + Footer.SIZE;
    return new Result(tail.summary(), validBytes, dirtyBlocks, newBlocks, out.size() - startOffset, rebuilt,
        rawDataBytes, storedDataBytes);
  }
}
