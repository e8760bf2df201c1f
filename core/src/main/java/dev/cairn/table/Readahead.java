package dev.cairn.table;

import dev.cairn.fs.IoTag;
import dev.cairn.fs.ReadableFile;
import dev.cairn.table.block.BlockHandle;
import java.io.IOException;
import java.nio.ByteBuffer;

/**
 * Read-ahead for one iterator over one table: when the iterator walks blocks that lie back to
 * back in the file, a block-cache miss reads a span of the following blocks at once into a
 * buffer, and later misses are served from it.
 *
 * <p>Where it applies: every iterator over a file that bypasses the page cache (O_DIRECT), where
 * no kernel reads ahead and a scan would otherwise cost one device read per 4 KiB block; and a
 * compaction's iterators over page-cache files too, where the kernel reads ahead but each block
 * would still cost a system call and a copy through the JDK's temporary direct buffer: one read
 * per 256 KiB took a third off a merge's time and CPU (docs/results/issue21/s15-compaction/,
 * {@code CompactionBench}), as RocksDB's {@code compaction_readahead_size} does for its
 * compactions. A user's iterator over a page-cache file reads block by block as before: most
 * scans read a few blocks, and spans for them have not been measured.
 *
 * <p>The policy is RocksDB's implicit auto read-ahead for iterators: a user iterator starts on its
 * third block in a row that begins where the previous one ended, with 8 KiB, and doubles the span
 * on every refill up to {@link ReadaheadBuffers#BUFFER_BYTES}; a seek elsewhere starts over. A
 * compaction (or any non-user reader) usually walks whole tables, so it reads the largest span as
 * soon as its second block follows the first; its first block is read alone, so that block
 * compaction, which seeks to a table's dirty blocks, does not read 256 KiB for each of them. Blocks served from the buffer are verified like any read (their CRC is checked in
 * the copy the caller keeps), and a read near the end of the file that comes up short is left
 * to the caller's ordinary read, which reports the truncation.
 *
 * <p>A span never reads past the blocks the iterator will read next: it ends with the last of
 * the blocks that follow the missed one both in the index and back to back in the file. In a
 * table written in one piece that is every later block, so nothing changes; in an appended table
 * (block compaction) the blocks an append made dirty still lie between the clean ones, garbage
 * no index references, and the clean blocks' runs are broken by the appended ones at the file's
 * tail. A span over the file's bytes would read that garbage with every merge of the table, and
 * a whole span for each short run (docs/decisions/0027 has what that cost). Bytes are never
 * rewritten, so a buffered span stays valid across appends. Not thread-safe: one iterator's.
 */
final class Readahead implements AutoCloseable {
  static final int INITIAL_BYTES = 8 << 10;
  /** Sequential blocks a user iterator reads one by one before reading ahead (RocksDB's 2). */
  static final int USER_BLOCKS_BEFORE = 2;
  /** Blocks a compaction's iterator reads one by one before reading ahead. */
  static final int COMPACTION_BLOCKS_BEFORE = 1;
  /** Where spans of a page-cache file start: any multiple serves; a page keeps reads page-sized. */
  static final int PAGE_CACHE_SPAN_ALIGNMENT = 4096;

  private final ReadaheadBuffers buffers;
  private final int alignment;
  private final long dataEnd;
  private final int blocksBefore;
  private final int initialBytes;

  /** The index the iterator walks: which blocks it reads next, and where they lie. */
  private final TableIndex index;

  /** Where the next block starts if the iterator goes on in file order; -1 before the first. */
  private long nextInFile = -1;
  /** The index position of the block the iterator moved to last. */
  private int position;
  /** Blocks accessed in a row, each where the previous one ended. */
  private int run;
  /** Bytes the next refill reads. */
  private int spanBytes;

  private ByteBuffer buffer; // borrowed at the first refill
  private long bufferStart;
  private int bufferBytes;

  private Readahead(ReadaheadBuffers buffers, TableIndex index, int alignment, long dataEnd, int blocksBefore,
      int initialBytes) {
    this.buffers = buffers;
    this.index = index;
    this.alignment = alignment;
    this.dataEnd = dataEnd;
    this.blocksBefore = blocksBefore;
    this.initialBytes = initialBytes;
    this.spanBytes = initialBytes;
  }

  /**
   * Read-ahead for an iterator over {@code file}, or null when it is a user's iterator whose
   * reads go through the page cache (the kernel reads ahead) or no buffers are available.
   *
   * @param index the table's index, which the iterator walks in order
   * @param dataEnd where the table's data blocks end (its footer's offset): no span reads past it
   * @param userRead whether a user's iterator (start small, grow) or a compaction's (full span)
   */
  static Readahead forFile(ReadableFile file, ReadaheadBuffers buffers, TableIndex index, long dataEnd,
      boolean userRead) {
    int directAlignment = file.directReadAlignment();
    // On the page cache only a compaction reads ahead (the class comment says why).
    int alignment = directAlignment > 0 ? directAlignment : userRead ? 0 : PAGE_CACHE_SPAN_ALIGNMENT;
    if (buffers == null || alignment <= 0 || alignment > ReadaheadBuffers.BUFFER_BYTES) {
      return null;
    }
    return userRead
        ? new Readahead(buffers, index, alignment, dataEnd, USER_BLOCKS_BEFORE, INITIAL_BYTES)
        : new Readahead(buffers, index, alignment, dataEnd, COMPACTION_BLOCKS_BEFORE,
            ReadaheadBuffers.BUFFER_BYTES);
  }

  /** The iterator moved to the block at index position {@code i} (whether it will be a cache hit or not). */
  void noteAccess(int i) {
    BlockHandle h = index.handle(i);
    position = i;
    if (h.offset() == nextInFile) {
      run++;
    } else {
      run = 1;
      spanBytes = initialBytes;
    }
    nextInFile = h.end();
  }

  /**
   * Copies block {@code h} with its trailer into {@code target} (from index 0 to its limit, the
   * block's stored size) from the buffer, refilling the buffer first if the block is not in it
   * and the iterator has been sequential long enough. Returns false, having copied nothing, when
   * the caller should read the block itself.
   */
  boolean copyBlock(ReadableFile file, BlockHandle h, ByteBuffer target, IoTag tag)
      throws IOException {
    int stored = target.limit();
    if (!holds(h.offset(), stored)) {
      if (run <= blocksBefore || !refill(file, h.offset(), stored, tag)) {
        return false;
      }
    }
    target.put(0, buffer, (int) (h.offset() - bufferStart), stored);
    return true;
  }

  private boolean holds(long offset, int length) {
    return buffer != null && offset >= bufferStart
        && offset + length <= bufferStart + bufferBytes;
  }

  /** Reads the span that starts with the block at {@code offset}; false if it cannot hold it. */
  private boolean refill(ReadableFile file, long offset, int stored, IoTag tag) throws IOException {
    long from = offset - offset % alignment;
    long needed = offset + stored - from;
    long readEnd = roundUp(Math.min(dataEnd, endOfRunFrom(from)));
    long span = Math.min(Math.max(spanBytes, needed), readEnd - from);
    span = Math.min(roundUp(span), ReadaheadBuffers.BUFFER_BYTES);
    if (span < needed) {
      return false; // a block larger than the buffer (a huge value): read it alone
    }
    if (buffer == null) {
      buffer = buffers.borrow();
    }
    bufferStart = from;
    bufferBytes = 0; // nothing valid while the read is under way (or if it throws)
    buffer.clear().limit((int) span);
    bufferBytes = file.read(from, buffer, tag);
    spanBytes = (int) Math.min((long) spanBytes * 2, ReadaheadBuffers.BUFFER_BYTES);
    return holds(offset, stored);
  }

  /**
   * Where the blocks end that follow the current one in the index and lie back to back with it in
   * the file, looking no further than a full buffer from {@code from}.
   */
  private long endOfRunFrom(long from) {
    long end = index.handle(position).end();
    for (int j = position + 1; j < index.size() && end - from < ReadaheadBuffers.BUFFER_BYTES; j++) {
      BlockHandle next = index.handle(j);
      if (next.offset() != end) {
        break;
      }
      end = next.end();
    }
    return end;
  }

  private long roundUp(long n) {
    return (n + alignment - 1) / alignment * alignment;
  }

  /** Gives the buffer back; the read-ahead may be used again (it borrows anew). */
  @Override
  public void close() {
    if (buffer != null) {
      ByteBuffer b = buffer;
      buffer = null;
      bufferBytes = 0;
      buffers.giveBack(b);
    }
  }
}
