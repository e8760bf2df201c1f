package dev.cairn.table;

import dev.cairn.fs.IoTag;
import dev.cairn.fs.ReadableFile;
import dev.cairn.table.block.BlockHandle;
import java.io.IOException;
import java.nio.ByteBuffer;

/**
 * Read-ahead for one iterator over one table: when the iterator walks the index's blocks in
 * order, a block-cache miss reads a span of the blocks it will read next at once into a buffer,
 * and later misses are served from it.
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
 * third block in a row of the index, with 8 KiB, and doubles the span on every refill up to
 * {@link ReadaheadBuffers#BUFFER_BYTES}; a seek elsewhere starts over. A compaction (or any
 * non-user reader) usually walks whole tables, so it reads the largest span as soon as its second
 * block follows the first; its first block is read alone, so that a seek to one block does not
 * read 256 KiB. Blocks served from a buffer are verified like any read (their CRC is checked in
 * the copy the caller keeps), and a read near the end of the file that comes up short is left to
 * the caller's ordinary read, which reports the truncation.
 *
 * <p>A span reads the blocks the iterator will read next: from the missed block on, each block
 * that a later index entry names and that begins at most {@link #MAX_GAP_BYTES} past where the
 * span so far ends, passing over at most {@link #LOOKAHEAD_BLOCKS} entries that do not. In a
 * table written in one piece that is every later block, so a span is the next 256 KiB of the
 * file. An appended table (block compaction) is several regions, each in key order: the table as
 * first written, where the old copies of dirty blocks lie as garbage between the clean ones, and
 * each append's tail; the index interleaves them. A span there runs through the missed block's
 * region, skipping the entries of the others and reading the garbage between its clean blocks
 * only where it is no wider than the gap bound (a call saved for the bytes read and dropped); and
 * an iterator keeps up to {@link #MAX_SPANS} spans at once, one
 * per region its walk alternates between, so that going from a clean block to an appended one and
 * back does not read either region again. A refill takes the buffer of a span none of the next
 * entries needs, else an unused slot, else the span used longest ago. A walk through a table
 * written in one piece uses one buffer; an iterator that seeks back a little and walks on may keep
 * its earlier span as well. Bytes are never rewritten, so a buffered span stays valid across
 * appends. Not thread-safe: one iterator's.
 */
final class Readahead implements AutoCloseable {
  static final int INITIAL_BYTES = 8 << 10;
  /** Sequential blocks a user iterator reads one by one before reading ahead (RocksDB's 2). */
  static final int USER_BLOCKS_BEFORE = 2;
  /** Blocks a compaction's iterator reads one by one before reading ahead. */
  static final int COMPACTION_BLOCKS_BEFORE = 1;
  /** Where spans of a page-cache file start: any multiple serves; a page keeps reads page-sized. */
  static final int PAGE_CACHE_SPAN_ALIGNMENT = 4096;
  /**
   * Spans (and buffers) one iterator keeps at once: the regions of an appended table its walk
   * alternates between (the table as first written and up to three appends' tails at a time).
   */
  static final int MAX_SPANS = 4;
  /**
   * Entries of other regions a refill passes over while it gathers its span, and entries it looks
   * through for the spans still needed: enough for a full span of 4 KiB blocks spread over four
   * interleaved regions.
   */
  static final int LOOKAHEAD_BLOCKS = 4 * ReadaheadBuffers.BUFFER_BYTES / 4096;
  /**
   * Bytes a read passes over to reach the next block it needs rather than making another call
   * (here, and for block compaction's dirty blocks): eight 4 KiB blocks, enough to bridge the
   * garbage merges leave between an appended table's clean blocks. Below what a call costs in
   * transfer time on the devices Cairn runs on: an NVMe read's latency (~80-100 us) would move
   * 200 KB or more, and a provisioned cloud volume serves about 40 KB per operation of its
   * budget (gp3: 125 MB/s over 3,000 IOPS). Every call saved costs at most this many bytes.
   */
  static final int MAX_GAP_BYTES = 32 << 10;

  private final ReadaheadBuffers buffers;
  private final int alignment;
  private final long dataEnd;
  private final int blocksBefore;
  private final int initialBytes;

  /** The index the iterator walks: which blocks it reads next, and where they lie. */
  private final TableIndex index;

  /** The index position of the block the iterator moved to last; -2 before the first. */
  private int position = -2;
  /** Blocks accessed in a row of the index. */
  private int run;
  /** Bytes the next refill reads. */
  private int spanBytes;

  private final Span[] spans = new Span[MAX_SPANS]; // a slot is filled at its first refill
  private long uses; // ticks of the spans' last-use clock

  /** Bytes of the file read into one buffer. */
  private static final class Span {
    ByteBuffer buffer;
    long start;
    int bytes;
    long lastUse;

    boolean holds(long offset, int length) {
      return buffer != null && offset >= start && offset + length <= start + bytes;
    }
  }

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
    if (i == position + 1) {
      run++;
    } else {
      run = 1;
      spanBytes = initialBytes;
    }
    position = i;
  }

  /**
   * Copies block {@code h} with its trailer into {@code target} (from index 0 to its limit, the
   * block's stored size) from a span, refilling one first if none holds the block and the
   * iterator has been sequential long enough. Returns false, having copied nothing, when the
   * caller should read the block itself.
   */
  boolean copyBlock(ReadableFile file, BlockHandle h, ByteBuffer target, IoTag tag)
      throws IOException {
    int stored = target.limit();
    Span s = spanHolding(h.offset(), stored);
    if (s == null) {
      if (run <= blocksBefore) {
        return false;
      }
      s = refill(file, h.offset(), stored, tag);
      if (s == null) {
        return false;
      }
    }
    s.lastUse = ++uses;
    target.put(0, s.buffer, (int) (h.offset() - s.start), stored);
    return true;
  }

  private Span spanHolding(long offset, int length) {
    for (Span s : spans) {
      if (s != null && s.holds(offset, length)) {
        return s;
      }
    }
    return null;
  }

  /** Reads the span that starts with the block at {@code offset}; null if it cannot hold it. */
  private Span refill(ReadableFile file, long offset, int stored, IoTag tag) throws IOException {
    long from = offset - offset % alignment;
    long needed = offset + stored - from;
    long readEnd = roundUp(Math.min(dataEnd, endOfRunFrom(from)));
    long span = Math.min(Math.max(spanBytes, needed), readEnd - from);
    span = Math.min(roundUp(span), ReadaheadBuffers.BUFFER_BYTES);
    if (span < needed) {
      return null; // a block larger than the buffer (a huge value): read it alone
    }
    Span s = slotToRefill();
    if (s.buffer == null) {
      s.buffer = buffers.borrow();
    }
    s.start = from;
    s.bytes = 0; // nothing valid while the read is under way (or if it throws)
    s.buffer.clear().limit((int) span);
    s.bytes = file.read(from, s.buffer, tag);
    spanBytes = (int) Math.min((long) spanBytes * 2, ReadaheadBuffers.BUFFER_BYTES);
    return s.holds(offset, stored) ? s : null;
  }

  /**
   * Where the blocks end that the next index entries name and that follow the current one in the
   * file, each at most {@link #MAX_GAP_BYTES} past the one before, looking no further than a
   * full buffer from {@code from} and past no more than {@link #LOOKAHEAD_BLOCKS} entries of
   * other regions.
   */
  private long endOfRunFrom(long from) {
    long end = index.handle(position).end();
    int skipped = 0; // entries of other regions passed over; a run of this one's costs nothing
    for (int j = position + 1; j < index.size() && end - from < ReadaheadBuffers.BUFFER_BYTES; j++) {
      BlockHandle next = index.handle(j);
      long gap = next.offset() - end;
      if (gap >= 0 && gap <= MAX_GAP_BYTES) {
        end = next.end();
      } else if (++skipped > LOOKAHEAD_BLOCKS) {
        break;
      }
    }
    return end;
  }

  /** A span none of the next entries needs, else an unused slot, else the one used longest ago. */
  private Span slotToRefill() {
    int unused = -1;
    Span oldest = null;
    for (int k = 0; k < spans.length; k++) {
      Span s = spans[k];
      if (s == null) {
        unused = unused < 0 ? k : unused;
      } else if (!neededNext(s)) {
        return s;
      } else if (oldest == null || s.lastUse < oldest.lastUse) {
        oldest = s;
      }
    }
    if (unused >= 0) {
      spans[unused] = new Span();
      return spans[unused];
    }
    return oldest;
  }

  /** Whether one of the next index entries names a block span {@code s} holds. */
  private boolean neededNext(Span s) {
    int last = lookaheadEnd();
    for (int j = position + 1; j < last; j++) {
      BlockHandle next = index.handle(j);
      if (s.holds(next.offset(), (int) (next.end() - next.offset()))) {
        return true;
      }
    }
    return false;
  }

  private int lookaheadEnd() {
    return (int) Math.min(index.size(), (long) position + 1 + LOOKAHEAD_BLOCKS);
  }

  private long roundUp(long n) {
    return (n + alignment - 1) / alignment * alignment;
  }

  /** Gives the buffers back; the read-ahead may be used again (it borrows anew). */
  @Override
  public void close() {
    for (Span s : spans) {
      if (s != null && s.buffer != null) {
        ByteBuffer b = s.buffer;
        s.buffer = null;
        s.bytes = 0;
        buffers.giveBack(b);
      }
    }
  }
}
