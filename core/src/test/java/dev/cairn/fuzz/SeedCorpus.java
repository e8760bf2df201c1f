package dev.cairn.fuzz;

import dev.cairn.wal.WriteBatchRecords;
import dev.cairn.WriteBatch;
import dev.cairn.config.Compression;
import dev.cairn.fs.fake.InMemoryFile;
import dev.cairn.key.InternalKey;
import dev.cairn.key.InternalKeyComparator;
import dev.cairn.key.ValueType;
import dev.cairn.model.BufferEntry;
import dev.cairn.table.Footer;
import dev.cairn.table.TableBuilder;
import dev.cairn.table.TableOptions;
import dev.cairn.table.block.BlockBuilder;
import dev.cairn.table.block.BlockTrailer;
import dev.cairn.table.codec.BlockCompressor;
import dev.cairn.version.FileMetaData;
import dev.cairn.version.VersionEdit;
import dev.cairn.version.VersionEditCodec;
import dev.cairn.wal.LogWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Random;

/**
 * Writes the seed corpora of the fuzz tests from real encodings, made by the engine's own
 * writers, plus a few mutations of each that aim at length fields and truncation. The corpora are
 * committed; after a format change, regenerate them with
 *
 * <pre>
 *   mvn -o -pl core -am test -Dtest=SeedCorpusTest -Dcairn.fuzz.writeSeeds=true -Dsurefire.failIfNoSpecifiedTests=false
 * </pre>
 *
 * Deterministic (a fixed seed) except for the creation time a table's properties record.
 * {@code regression-*} inputs (fuzzer findings) are not generated: they stay as committed.
 */
public final class SeedCorpus {
  private static final Random RND = new Random(20261122);

  private SeedCorpus() {}

  public static void main(String[] args) throws IOException {
    Path root = Path.of(args.length > 0 ? args[0] : "core/src/test/resources").resolve("dev/cairn/fuzz");
    Map<String, byte[]> batches = writeBatches();
    write(root, "RecordFuzzTest", "writeBatch", batches);
    write(root, "RecordFuzzTest", "versionEdit", versionEdits());
    Map<String, byte[]> blocks = blocks();
    write(root, "BlockFuzzTest", "block", blocks);
    Map<String, byte[]> tables = tables();
    write(root, "TableFuzzTest", "open", tables);
    write(root, "TableFuzzTest", "openChecksumsRepaired", tables);
    write(root, "TableFuzzTest", "footer", footers(tables));
    write(root, "TableFuzzTest", "properties", properties(tables));
    write(root, "CodecFuzzTest", "lz4", compressedBlocks(Compression.lz4()));
    write(root, "CodecFuzzTest", "zstd", compressedBlocks(Compression.zstd()));
    Map<String, byte[]> logs = logs(batches);
    write(root, "LogFuzzTest", "wal", logs);
    write(root, "LogFuzzTest", "walChecksumsRepaired", logs);
  }

  /** Each valid input, plus a truncation, a bit flip and a maximal varint spliced in. */
  private static void write(Path root, String test, String method, Map<String, byte[]> valid)
      throws IOException {
    Path dir = root.resolve(test + "Inputs").resolve(method);
    Files.createDirectories(dir);
    for (Map.Entry<String, byte[]> e : valid.entrySet()) {
      byte[] b = e.getValue();
      Files.write(dir.resolve("valid-" + e.getKey()), b);
      if (b.length > 1) {
        Files.write(dir.resolve("truncated-" + e.getKey()), Arrays.copyOf(b, RND.nextInt(b.length)));
        byte[] flipped = b.clone();
        flipped[RND.nextInt(b.length)] ^= (byte) (1 << RND.nextInt(8));
        Files.write(dir.resolve("bitflip-" + e.getKey()), flipped);
        byte[] huge = b.clone();
        int at = RND.nextInt(b.length);
        for (int i = at; i < Math.min(b.length, at + 5); i++) {
          huge[i] = (byte) (i < at + 4 ? 0xff : 0x0f); // varint32 0xffffffff, or a large fixed field
        }
        Files.write(dir.resolve("hugelength-" + e.getKey()), huge);
      }
    }
  }

  static byte[] key(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  static Map<String, byte[]> writeBatches() {
    Map<String, byte[]> m = new LinkedHashMap<>();
    m.put("empty", WriteBatchRecords.encode(new WriteBatch(), 1));
    m.put("one-put", WriteBatchRecords.encode(new WriteBatch().put(key("apple"), key("red")), 7));
    m.put("mixed", WriteBatchRecords.encode(new WriteBatch().put(key("a"), key("1")).delete(key("b"))
        .put(key("c"), new byte[40]).delete(key("a")), 1000));
    return m;
  }

  static Map<String, byte[]> versionEdits() {
    Map<String, byte[]> m = new LinkedHashMap<>();
    m.put("first", VersionEditCodec.encode(new VersionEdit().setFormatVersion(1).setLogNumber(3).setNextFileNumber(5)
        .setLastSequence(0)));
    FileMetaData f = FileMetaData.ofNewTable(12, 4096, 4000,
        InternalKey.encode(key("a"), 5, ValueType.VALUE), InternalKey.encode(key("m"), 9, ValueType.DELETION),
        10, 5, 9);
    m.put("flush", VersionEditCodec.encode(new VersionEdit().setLogNumber(14).setNextFileNumber(15).setLastSequence(9)
        .addFile(0, f)));
    m.put("compaction", VersionEditCodec.encode(new VersionEdit().deleteFile(0, 12).deleteFile(1, 8).addFile(1, f)
        .setCompactPointer(1, InternalKey.encode(key("m"), 9, ValueType.DELETION))));
    m.put("buffer", VersionEditCodec.encode(new VersionEdit().deleteFile(1, 12).addToBuffer(2, 30, new BufferEntry.File<>(f))
        .removeFromBuffer(2, 29, new BufferEntry.File<>(f))
        .addToBuffer(2, 29, new BufferEntry.Removed<>(key("a"), key("m")))));
    return m;
  }

  static Map<String, byte[]> blocks() {
    Map<String, byte[]> m = new LinkedHashMap<>();
    for (int interval : new int[] {1, 4, 16}) {
      BlockBuilder b = new BlockBuilder(interval, InternalKeyComparator.INSTANCE, 256);
      for (int i = 0; i < 20; i++) {
        b.add(InternalKey.encode(key(String.format("key%03d", i * 3)), 100 - i, ValueType.VALUE),
            key("value" + i));
      }
      m.put("interval" + interval, b.finish());
    }
    m.put("empty", new BlockBuilder(16, InternalKeyComparator.INSTANCE, 16).finish());
    return m;
  }

  static Map<String, byte[]> tables() throws IOException {
    Map<String, byte[]> m = new LinkedHashMap<>();
    m.put("one-block", table(new TableOptions(4096, 16, 10), 10, 0));
    m.put("many-blocks", table(new TableOptions(128, 4, 10), 40, 0));
    m.put("no-filter", table(new TableOptions(256, 2, 0), 20, 0));
    m.put("appended", table(new TableOptions(256, 4, 10), 20, 15));
    m.put("empty", table(new TableOptions(4096, 16, 10), 0, 0));
    m.put("lz4", table(new TableOptions(512, 4, 10).withCompression(Compression.lz4()), 40, 0));
    m.put("zstd-appended", table(new TableOptions(512, 4, 10).withCompression(Compression.zstd()), 30, 20));
    return m;
  }

  /**
   * The stored contents (raw length and payload, section 3.2 of docs/format.md) of blocks that
   * {@code compression} shrinks: repetitive values, as compressed blocks hold.
   */
  static Map<String, byte[]> compressedBlocks(Compression compression) {
    Map<String, byte[]> m = new LinkedHashMap<>();
    try (BlockCompressor c = BlockCompressor.of(compression)) {
      for (int interval : new int[] {1, 16}) {
        BlockBuilder b = new BlockBuilder(interval, InternalKeyComparator.INSTANCE, 1024);
        for (int i = 0; i < 30; i++) {
          b.add(InternalKey.encode(key(String.format("key%03d", i * 3)), 100 - i, ValueType.VALUE),
              key(("value" + i).repeat(1 + i % 5)));
        }
        BlockCompressor.Stored stored = c.store(b.finish());
        if (stored.type() == BlockTrailer.TYPE_UNCOMPRESSED) {
          throw new IllegalStateException(compression + " did not shrink the seed block");
        }
        m.put("interval" + interval, Arrays.copyOf(stored.bytes(), stored.length()));
      }
    }
    return m;
  }

  /** A table of {@code n} entries; with {@code appended} > 0, a second footer over more keys. */
  private static byte[] table(TableOptions options, int n, int appended) throws IOException {
    InMemoryFile file = new InMemoryFile();
    long footer = build(file, options, n, Footer.NO_PREVIOUS, 0);
    if (appended > 0) {
      build(file, options, n + appended, footer, 1);
    }
    return file.bytes();
  }

  private static long build(InMemoryFile file, TableOptions options, int n, long previous, long extent)
      throws IOException {
    TableBuilder b = new TableBuilder(file, options, previous, extent);
    boolean repeat = !options.compression().isNone(); // values a codec shrinks, so blocks are compressed
    for (int i = 0; i < n; i++) {
      ValueType type = i % 5 == 4 ? ValueType.DELETION : ValueType.VALUE;
      b.add(InternalKey.encode(key(String.format("key%03d", i * 2)), 1000 - i, type),
          type == ValueType.DELETION ? new byte[0] : key(repeat ? ("v" + i).repeat(12) : "v" + i));
    }
    return b.finish().footerOffset();
  }

  static Map<String, byte[]> footers(Map<String, byte[]> tables) {
    Map<String, byte[]> m = new LinkedHashMap<>();
    tables.forEach((name, t) -> m.put(name, Arrays.copyOfRange(t, t.length - Footer.SIZE, t.length)));
    return m;
  }

  /** The contents of each table's properties block, located through its footer. */
  static Map<String, byte[]> properties(Map<String, byte[]> tables) {
    Map<String, byte[]> m = new LinkedHashMap<>();
    tables.forEach((name, t) -> {
      Footer f = Footer.decode(Arrays.copyOfRange(t, t.length - Footer.SIZE, t.length), name, t.length - Footer.SIZE);
      int at = (int) f.propertiesHandle().offset();
      m.put(name, Arrays.copyOfRange(t, at, at + (int) f.propertiesHandle().size()));
    });
    return m;
  }

  static Map<String, byte[]> logs(Map<String, byte[]> batches) throws IOException {
    Map<String, byte[]> m = new LinkedHashMap<>();
    InMemoryFile small = new InMemoryFile();
    try (LogWriter w = new LogWriter(small)) {
      long seq = 1;
      for (byte[] b : batches.values()) {
        byte[] r = b.clone();
        dev.cairn.util.Coding.putFixed64(r, 0, seq);
        seq += WriteBatchRecords.countOf(r);
        w.addRecord(r);
      }
    }
    m.put("batches", small.bytes());
    InMemoryFile fragmented = new InMemoryFile();
    try (LogWriter w = new LogWriter(fragmented)) {
      w.addRecord(WriteBatchRecords.encode(new WriteBatch().put(key("big"), new byte[33_000]), 1));
      w.addRecord(WriteBatchRecords.encode(new WriteBatch().delete(key("big")), 2));
    }
    m.put("fragmented", fragmented.bytes());
    return m;
  }
}
