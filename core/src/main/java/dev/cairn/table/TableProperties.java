package dev.cairn.table;

import dev.cairn.CorruptionException;
import dev.cairn.key.InternalKey;
import dev.cairn.key.UserKeys;
import dev.cairn.table.block.Block;
import dev.cairn.table.block.BlockHandle;
import dev.cairn.table.block.BlockBuilder;
import dev.cairn.table.block.BlockIterator;
import dev.cairn.util.ByteSink;
import dev.cairn.util.ByteSource;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * The properties block (docs/format.md section 6): what a footer's table holds. Sizes are in
 * bytes and include block trailers. Encoded as a key/value block with restart interval 1, names
 * in bytewise order; unknown names are ignored on read, a missing name is corruption.
 *
 * @param entries all entries
 * @param deletions entries of type deletion
 * @param smallest smallest internal key (empty if no entries)
 * @param largest largest internal key (empty if no entries)
 * @param smallestSequence smallest sequence number
 * @param largestSequence largest sequence number
 * @param rawKeyBytes sum of internal key lengths
 * @param rawValueBytes sum of value lengths
 * @param dataBlocks data blocks in the index
 * @param dataBytes sum of their sizes
 * @param indexBytes index block size
 * @param filterBytes filter block size (0 = no filter)
 * @param filterBitsPerKey filter bits per key (0 = no filter)
 * @param creationTimeMillis when this footer was written, ms since the epoch
 * @param creator the writing software
 * @param extent 0 for a freshly built table, +1 per append
 * @param rangeDeletions the range-deletion block ({@link BlockHandle#NONE}: none; only in a
 *     version 3 table, docs/format.md section 5a)
 */
public record TableProperties(
    long entries,
    long deletions,
    byte[] smallest,
    byte[] largest,
    long smallestSequence,
    long largestSequence,
    long rawKeyBytes,
    long rawValueBytes,
    long dataBlocks,
    long dataBytes,
    long indexBytes,
    long filterBytes,
    long filterBitsPerKey,
    long creationTimeMillis,
    String creator,
    long extent,
    BlockHandle rangeDeletions) {

  public static final String CREATOR = "cairn 0.1";

  /** Properties of a table without range tombstones. */
  public TableProperties(long entries, long deletions, byte[] smallest, byte[] largest, long smallestSequence,
      long largestSequence, long rawKeyBytes, long rawValueBytes, long dataBlocks, long dataBytes, long indexBytes,
      long filterBytes, long filterBitsPerKey, long creationTimeMillis, String creator, long extent) {
    this(entries, deletions, smallest, largest, smallestSequence, largestSequence, rawKeyBytes, rawValueBytes,
        dataBlocks, dataBytes, indexBytes, filterBytes, filterBitsPerKey, creationTimeMillis, creator, extent,
        BlockHandle.NONE);
  }

  /** These properties naming {@code handle} as the table's range-deletion block. */
  public TableProperties withRangeDeletions(BlockHandle handle) {
    return new TableProperties(entries, deletions, smallest, largest, smallestSequence, largestSequence, rawKeyBytes,
        rawValueBytes, dataBlocks, dataBytes, indexBytes, filterBytes, filterBitsPerKey, creationTimeMillis, creator,
        extent, handle);
  }

  public boolean hasRangeDeletions() {
    return rangeDeletions.size() != 0;
  }

  public byte[] encode() {
    TreeMap<String, byte[]> m = new TreeMap<>();
    m.put("cairn.creation.time", varint(creationTimeMillis));
    m.put("cairn.creator", creator.getBytes(StandardCharsets.UTF_8));
    m.put("cairn.data.blocks", varint(dataBlocks));
    m.put("cairn.data.bytes", varint(dataBytes));
    m.put("cairn.deletions", varint(deletions));
    m.put("cairn.entries", varint(entries));
    m.put("cairn.extent", varint(extent));
    m.put("cairn.filter.bits.per.key", varint(filterBitsPerKey));
    m.put("cairn.filter.bytes", varint(filterBytes));
    m.put("cairn.index.bytes", varint(indexBytes));
    m.put("cairn.key.largest", largest);
    m.put("cairn.key.smallest", smallest);
    m.put("cairn.raw.key.bytes", varint(rawKeyBytes));
    m.put("cairn.raw.value.bytes", varint(rawValueBytes));
    if (hasRangeDeletions()) {
      byte[] handle = new byte[16];
      dev.cairn.util.Coding.putFixed64(handle, 0, rangeDeletions.offset());
      dev.cairn.util.Coding.putFixed64(handle, 8, rangeDeletions.size());
      m.put("cairn.range.deletions", handle);
    }
    m.put("cairn.sequence.largest", varint(largestSequence));
    m.put("cairn.sequence.smallest", varint(smallestSequence));
    BlockBuilder b = new BlockBuilder(1, UserKeys.COMPARATOR, 512);
    m.forEach((k, v) -> b.add(k.getBytes(StandardCharsets.UTF_8), v));
    return b.finish();
  }

  private static byte[] varint(long v) {
    return new ByteSink(10).putVarint64(v).toByteArray();
  }

  /** Decodes verified properties block contents read at {@code blockOffset}. */
  public static TableProperties decode(ByteBuffer contents, String fileName, long blockOffset) {
    Map<String, byte[]> m = new HashMap<>();
    try (BlockIterator it = new Block(contents, fileName, blockOffset).iterator(UserKeys.COMPARATOR)) {
      for (it.seekToFirst(); it.isValid(); it.next()) {
        m.put(new String(it.key(), StandardCharsets.UTF_8), it.value());
      }
    }
    Decoder d = new Decoder(m, fileName, blockOffset);
    byte[] smallest = d.bytes("cairn.key.smallest");
    byte[] largest = d.bytes("cairn.key.largest");
    long entries = d.number("cairn.entries");
    if (entries > 0 && (!InternalKey.isValid(smallest) || !InternalKey.isValid(largest))) {
      throw new CorruptionException(fileName, blockOffset, "bad smallest/largest key property");
    }
    return new TableProperties(
        entries,
        d.number("cairn.deletions"),
        smallest,
        largest,
        d.number("cairn.sequence.smallest"),
        d.number("cairn.sequence.largest"),
        d.number("cairn.raw.key.bytes"),
        d.number("cairn.raw.value.bytes"),
        d.number("cairn.data.blocks"),
        d.number("cairn.data.bytes"),
        d.number("cairn.index.bytes"),
        d.number("cairn.filter.bytes"),
        d.number("cairn.filter.bits.per.key"),
        d.number("cairn.creation.time"),
        new String(d.bytes("cairn.creator"), StandardCharsets.UTF_8),
        d.number("cairn.extent"),
        d.handle("cairn.range.deletions"));
  }

  private record Decoder(Map<String, byte[]> m, String fileName, long blockOffset) {
    byte[] bytes(String name) {
      byte[] v = m.get(name);
      if (v == null) {
        throw new CorruptionException(fileName, blockOffset, "missing table property " + name);
      }
      return v;
    }

    /** An optional fixed64 offset | fixed64 size; {@link BlockHandle#NONE} when absent. */
    BlockHandle handle(String name) {
      byte[] v = m.get(name);
      if (v == null) {
        return BlockHandle.NONE;
      }
      long offset = v.length == 16 ? dev.cairn.util.Coding.getFixed64(v, 0) : -1;
      long size = v.length == 16 ? dev.cairn.util.Coding.getFixed64(v, 8) : -1;
      if (offset < 0 || size <= 0) {
        throw new CorruptionException(fileName, blockOffset, "bad table property " + name);
      }
      return new BlockHandle(offset, size);
    }

    long number(String name) {
      byte[] v = bytes(name);
      ByteSource src = new ByteSource(v, fileName, blockOffset);
      long n = src.getVarint64();
      if (src.hasRemaining() || n < 0) {
        throw new CorruptionException(fileName, blockOffset, "bad table property " + name);
      }
      return n;
    }
  }

  /**
   * What this table's data blocks store for {@code rawEntryBytes} of entries (internal keys plus
   * values, as {@link #rawKeyBytes} and {@link #rawValueBytes} count them): that many bytes scaled
   * by its own data bytes per raw byte, which folds in its compression and its blocks' overhead.
   * A table with no entries stores them as they are.
   */
  public long storedBytesFor(long rawEntryBytes) {
    long raw = rawKeyBytes + rawValueBytes;
    return raw <= 0 ? rawEntryBytes : (long) Math.ceil((double) rawEntryBytes * dataBytes / raw);
  }

  /** One property per line, "name: value", for dumps. */
  public String render() {
    return "entries: " + entries + "\n"
        + "deletions: " + deletions + "\n"
        + "smallest: " + (smallest.length == 0 ? "-" : InternalKey.describe(smallest)) + "\n"
        + "largest: " + (largest.length == 0 ? "-" : InternalKey.describe(largest)) + "\n"
        + "sequences: " + smallestSequence + ".." + largestSequence + "\n"
        + "raw key bytes: " + rawKeyBytes + "\n"
        + "raw value bytes: " + rawValueBytes + "\n"
        + "data blocks: " + dataBlocks + "\n"
        + "data bytes: " + dataBytes + "\n"
        + "index bytes: " + indexBytes + "\n"
        + "filter bytes: " + filterBytes + " (" + filterBitsPerKey + " bits/key)\n"
        + "created: " + java.time.Instant.ofEpochMilli(creationTimeMillis) + " by " + creator + "\n"
        + "extent: " + extent + "\n"
        + (hasRangeDeletions() ? "range deletions: block at " + rangeDeletions.offset() + ", " + rangeDeletions.size()
            + " bytes\n" : "");
  }
}
