package dev.cairn.table;

import dev.cairn.CorruptionException;
import dev.cairn.fs.IoTag;
import dev.cairn.fs.ReadableFile;
import dev.cairn.key.InternalKey;
import dev.cairn.key.UserKeys;
import dev.cairn.table.block.BlockHandle;
import dev.cairn.table.block.BlockIterator;
import dev.cairn.table.block.BlockTrailer;
import dev.cairn.table.codec.BlockCodecs;
import java.io.IOException;
import java.nio.ByteBuffer;

/**
 * Renders a table as text for the CLI's {@code dump-table}: the footer chain (newest first),
 * the properties, one line per index entry with its block's summary and, if asked, every entry.
 * Damage is reported in the text where it is met, so that a dump shows as much as can be read,
 * and counted, so that the tool can exit with a failure.
 */
public final class TableDump {
  private TableDump() {}

  /**
   * A dump and the damage met while making it.
   *
   * @param damage places where the table could not be read (0 for a sound table)
   */
  public record Rendering(String text, int damage) {}

  /** The footer offset of a table whose valid length is {@code validLength}. */
  public static long lastFooterOffset(long validLength) {
    return validLength - Footer.SIZE;
  }

  /** Renders the table at {@code footerOffset}, without entries; does not close {@code file}. */
  public static String render(ReadableFile file, String fileName, long footerOffset)
      throws IOException {
    return render(file, fileName, footerOffset, false).text();
  }

  /**
   * Renders the table at {@code footerOffset}, each data block's entries too if {@code entries}
   * (keys and values escaped, values cut at 64 bytes); does not close {@code file}.
   */
  public static Rendering render(ReadableFile file, String fileName, long footerOffset, boolean entries)
      throws IOException {
    StringBuilder out = new StringBuilder();
    out.append("table ").append(fileName).append("\n");
    int damage = renderFooterChain(file, fileName, footerOffset, out);
    TableReader reader;
    try {
      reader = TableReader.open(new Unclosed(file), fileName, -1, footerOffset, null);
    } catch (CorruptionException e) {
      out.append("cannot open: ").append(e.getMessage()).append("\n");
      return new Rendering(out.toString(), damage + 1);
    }
    try (reader) {
      out.append("properties:\n");
      for (String line : reader.properties().render().split("\n")) {
        out.append("  ").append(line).append("\n");
      }
      TableIndex index = reader.index();
      out.append("index: ").append(index.size()).append(" data blocks (key order)\n");
      long[] storedByType = new long[BlockTrailer.MAX_TYPE + 1];
      long[] rawByType = new long[BlockTrailer.MAX_TYPE + 1];
      int[] blocksByType = new int[BlockTrailer.MAX_TYPE + 1];
      for (int i = 0; i < index.size(); i++) {
        BlockHandle h = index.handle(i);
        out.append(String.format("  #%d block %s separator %s: ", i, h,
            InternalKey.describe(index.separator(i))));
        String summary = blockSummary(reader, file, fileName, h, storedByType, rawByType, blocksByType);
        out.append(summary).append("\n");
        if (summary.startsWith(CORRUPT)) {
          damage++;
        } else if (entries) {
          renderEntries(reader, h, out);
        }
      }
      out.append(codecTotals(storedByType, rawByType, blocksByType));
    }
    return new Rendering(out.toString(), damage);
  }

  /** One line per block type met: blocks, stored and raw bytes, their ratio; then the table's. */
  private static String codecTotals(long[] stored, long[] raw, int[] blocks) {
    StringBuilder out = new StringBuilder("stored data blocks:\n");
    long allStored = 0;
    long allRaw = 0;
    for (int t = 0; t < blocks.length; t++) {
      if (blocks[t] == 0) {
        continue;
      }
      out.append(String.format("  %-8s %d blocks, %d stored bytes for %d raw (%.3f)%n", BlockCodecs.typeName(t), blocks[t],
          stored[t], raw[t], raw[t] == 0 ? 1.0 : (double) stored[t] / raw[t]));
      allStored += stored[t];
      allRaw += raw[t];
    }
    out.append(String.format("  table    %d stored bytes for %d raw (%.3f)%n", allStored, allRaw,
        allRaw == 0 ? 1.0 : (double) allStored / allRaw));
    return out.toString();
  }

  private static final String CORRUPT = "CORRUPT: ";

  private static void renderEntries(TableReader reader, BlockHandle h, StringBuilder out) {
    try (BlockRef ref = reader.acquireDataBlock(h, false, IoTag.OTHER);
         BlockIterator it = ref.block().internalKeyIterator()) {
      for (it.seekToFirst(); it.isValid(); it.next()) {
        byte[] v = it.value();
        String value = UserKeys.printable(v.length <= 64 ? v : java.util.Arrays.copyOf(v, 64));
        out.append("    ").append(InternalKey.describe(it.key())).append(" => ").append(value)
            .append(v.length > 64 ? "... (" + v.length + " bytes)" : "").append("\n");
      }
    }
  }

  /** Returns the number of damaged footers met (0 or 1: the chain stops at the first). */
  private static int renderFooterChain(ReadableFile file, String fileName, long footerOffset,
      StringBuilder out) throws IOException {
    long at = footerOffset;
    int guard = 0;
    while (at != Footer.NO_PREVIOUS && guard++ < 10_000) {
      byte[] raw = new byte[Footer.SIZE];
      int n = file.read(at, ByteBuffer.wrap(raw), IoTag.OTHER);
      try {
        if (n != Footer.SIZE) {
          throw new CorruptionException(fileName, at, "truncated footer");
        }
        Footer f = Footer.decode(raw, fileName, at);
        out.append(String.format("footer @%d: version %d, index %s, filter %s, properties %s,"
                + " previous %d%n", at, f.version(), f.indexHandle(),
            f.hasFilter() ? f.filterHandle() : "none", f.propertiesHandle(),
            f.previousFooterOffset()));
        at = f.previousFooterOffset();
      } catch (CorruptionException e) {
        out.append("footer @").append(at).append(": ").append(e.getMessage()).append("\n");
        return 1;
      }
    }
    return 0;
  }

  /**
   * The block's entries and key range, and how it is stored (its trailer's type, its stored and raw
   * sizes), which is added to the tallies by type.
   */
  private static String blockSummary(TableReader reader, ReadableFile file, String fileName, BlockHandle h,
      long[] storedByType, long[] rawByType, int[] blocksByType) throws IOException {
    byte[] type = new byte[1];
    if (file.read(h.offset() + h.size(), ByteBuffer.wrap(type), IoTag.OTHER) != 1) {
      return CORRUPT + new CorruptionException(fileName, h.offset(), "block trailer past the file's end").getMessage();
    }
    try (BlockRef ref = reader.acquireDataBlock(h, false, IoTag.OTHER);
         BlockIterator it = ref.block().internalKeyIterator()) {
      int t = type[0] & 0xff; // the read checked it: a known type
      long raw = ref.block().contents().remaining();
      storedByType[t] += h.size();
      rawByType[t] += raw;
      blocksByType[t]++;
      String stored = t == BlockTrailer.TYPE_UNCOMPRESSED
          ? ""
          : String.format(", %s %d of %d bytes (%.3f)", BlockCodecs.typeName(t), h.size(), raw, (double) h.size() / raw);
      int entries = 0;
      byte[] first = null;
      byte[] last = null;
      for (it.seekToFirst(); it.isValid(); it.next()) {
        if (first == null) {
          first = it.key();
        }
        last = it.key();
        entries++;
      }
      return entries + " entries, "
          + (first == null ? "empty" : InternalKey.describe(first) + " .. " + InternalKey.describe(last)) + stored;
    } catch (CorruptionException e) {
      return CORRUPT + e.getMessage();
    }
  }

  /** Lets a reader borrow a file without closing it. */
  private record Unclosed(ReadableFile file) implements ReadableFile {
    @Override
    public int read(long position, ByteBuffer dst, IoTag tag) throws IOException {
      return file.read(position, dst, tag);
    }

    @Override
    public long size() throws IOException {
      return file.size();
    }

    @Override
    public int directReadAlignment() {
      return file.directReadAlignment();
    }

    @Override
    public void close() {}
  }
}
