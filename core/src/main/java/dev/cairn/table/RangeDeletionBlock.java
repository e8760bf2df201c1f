package dev.cairn.table;

import dev.cairn.CorruptionException;
import dev.cairn.fs.IoTag;
import dev.cairn.fs.ReadableFile;
import dev.cairn.key.InternalKey;
import dev.cairn.key.InternalKeyComparator;
import dev.cairn.key.RangeTombstone;
import dev.cairn.key.RangeTombstones;
import dev.cairn.key.UserKeys;
import dev.cairn.key.ValueType;
import dev.cairn.table.block.Block;
import dev.cairn.table.block.BlockBuilder;
import dev.cairn.table.block.BlockHandle;
import dev.cairn.table.block.BlockIterator;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/**
 * A table's range-deletion block (docs/format.md section 5a): a key/value block with restart
 * interval 1, one entry per range tombstone in internal-key order, the key {@code (from,
 * sequence, RANGE_DELETION)} and the value the exclusive end {@code to}. Stored as built (type 0).
 */
final class RangeDeletionBlock {
  private RangeDeletionBlock() {}

  static byte[] encode(RangeTombstones tombstones) {
    BlockBuilder b = new BlockBuilder(1, InternalKeyComparator.INSTANCE, 256);
    for (RangeTombstone t : tombstones.all()) {
      b.add(t.startKey(), t.to());
    }
    return b.finish();
  }

  /**
   * Reads, verifies and decodes the block {@code handle} names for the table whose footer is at
   * {@code footerOffset} (the properties named it, at {@code propertiesOffset}): a handle that does
   * not end before the footer is corruption, before anything is read or allocated for it.
   */
  static RangeTombstones read(ReadableFile file, String fileName, BlockHandle handle, long footerOffset,
      long propertiesOffset) throws IOException {
    if (handle.size() > BlockHandle.MAX_SIZE || !handle.endsBy(footerOffset)) {
      throw new CorruptionException(fileName, propertiesOffset,
          "bad range-deletion block handle " + handle + " for a footer at " + footerOffset);
    }
    return decode(StoredBlockReader.readVerified(file, fileName, handle, IoTag.USER_READ), fileName, handle.offset());
  }

  /** Decodes verified block contents read at {@code blockOffset}; a malformed entry is corruption. */
  static RangeTombstones decode(ByteBuffer contents, String fileName, long blockOffset) {
    List<RangeTombstone> out = new ArrayList<>();
    try (BlockIterator it = new Block(contents, fileName, blockOffset).iterator(InternalKeyComparator.INSTANCE)) {
      for (it.seekToFirst(); it.isValid(); it.next()) {
        byte[] key = it.key();
        byte[] to = it.value();
        if (key.length < InternalKey.TRAILER_BYTES || InternalKey.type(key) != ValueType.RANGE_DELETION) {
          throw new CorruptionException(fileName, blockOffset, "range-deletion block holds a key that is no range"
              + " tombstone: " + (key.length < InternalKey.TRAILER_BYTES ? key.length + " bytes" : InternalKey.describe(key)));
        }
        byte[] from = InternalKey.userKey(key);
        if (UserKeys.compare(from, to) >= 0) {
          throw new CorruptionException(fileName, blockOffset, "range tombstone " + InternalKey.describe(key)
              + " ends at or before its start");
        }
        out.add(new RangeTombstone(from, to, InternalKey.sequence(key)));
      }
    }
    return RangeTombstones.of(out);
  }
}
