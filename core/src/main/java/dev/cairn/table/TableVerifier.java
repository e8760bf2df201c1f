package dev.cairn.table;

import dev.cairn.CairnIOException;
import dev.cairn.CorruptionException;
import dev.cairn.fs.IoTag;
import dev.cairn.fs.ReadableFile;
import dev.cairn.key.InternalKey;
import dev.cairn.key.InternalKeyComparator;
import dev.cairn.table.block.Block;
import dev.cairn.table.block.BlockHandle;
import dev.cairn.table.block.BlockIterator;
import java.io.IOException;

/** The full check behind {@link TableReader#verifyChecksums()}: every block, every key. */
final class TableVerifier {
  private static final InternalKeyComparator CMP = InternalKeyComparator.INSTANCE;

  private final TableReader reader;
  private final ReadableFile file;

  TableVerifier(TableReader reader, ReadableFile file) {
    this.reader = reader;
    this.file = file;
  }

  void verify() {
    TableIndex index = reader.index();
    String fileName = reader.fileName();
    long entries = 0;
    long deletions = 0;
    byte[] previous = null;
    for (int i = 0; i < index.size(); i++) {
      BlockHandle h = index.handle(i);
      Block block;
      try {
        block = Block.of(StoredBlockReader.readContents(file, fileName, h, IoTag.OTHER,
            reader.footer().mayHoldCompressedBlocks()), fileName, h);
      } catch (IOException e) {
        throw new CairnIOException("verify " + fileName, e);
      }
      byte[] lowerSeparator = i == 0 ? null : index.separator(i - 1);
      byte[] separator = index.separator(i);
      boolean empty = true;
      try (BlockIterator it = block.internalKeyIterator()) {
        for (it.seekToFirst(); it.isValid(); it.next()) {
          byte[] key = it.key();
          empty = false;
          if (previous != null && CMP.compare(previous, key) >= 0) {
            throw new CorruptionException(fileName, h.offset(), "keys out of order: "
                + InternalKey.describe(previous) + " then " + InternalKey.describe(key));
          }
          if (CMP.compare(key, separator) > 0
              || (lowerSeparator != null && CMP.compare(key, lowerSeparator) <= 0)) {
            throw new CorruptionException(fileName, h.offset(),
                "key " + InternalKey.describe(key) + " outside its index range");
          }
          entries++;
          if (InternalKey.type(key) == dev.cairn.key.ValueType.DELETION) {
            deletions++;
          }
          it.value();
          previous = key;
        }
      }
      if (empty) {
        throw new CorruptionException(fileName, h.offset(), "empty data block");
      }
    }
    TableProperties p = reader.properties();
    if (entries != p.entries() || deletions != p.deletions()) {
      throw new CorruptionException(fileName, reader.footer().propertiesHandle().offset(),
          "properties say " + p.entries() + " entries / " + p.deletions() + " deletions, blocks hold "
              + entries + " / " + deletions);
    }
  }
}
