package dev.cairn.table;

import dev.cairn.fs.IoTag;
import dev.cairn.fs.fake.InMemoryFile;
import dev.cairn.iter.CompactionOutputIterator;
import dev.cairn.iter.InternalIterator;
import dev.cairn.iter.TestKeys;
import dev.cairn.key.InternalKey;
import dev.cairn.key.InternalKeyComparator;
import dev.cairn.key.LookupResult;
import dev.cairn.key.RangeTombstone;
import dev.cairn.key.RangeTombstones;
import dev.cairn.key.ValueType;
import dev.cairn.table.block.BlockHandle;
import dev.cairn.testkit.DataDrivenFile;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * Data-driven cases in {@code range_tombstones.txt} for range tombstones in tables, with tiny
 * blocks (two entries each):
 *
 * <ul>
 *   <li>{@code walk}: tables newest first ({@code file ENTRIES | ranges: RANGES}), read as the
 *       compaction buffer's walk reads its files: the first table whose answer is a value or a
 *       tombstone (its own, or one of its range tombstones over the key) answers. Then {@code read
 *       KEY@SNAPSHOT ...}; the output names each read's answer and the table that gave it.
 *   <li>{@code append bottom=BOOL}: block compaction's append ({@link TableAppender}) of {@code
 *       incoming ENTRIES | ranges: RANGES} to {@code table ENTRIES | ranges: RANGES}: which old
 *       blocks stay where they were (clean) and which are merged, the new table's entries, range
 *       tombstones and bounds, and reads of every key named at the latest sequence.
 * </ul>
 *
 * Entries are {@code user@sequence:TYPE[=value]}, ranges {@code from..to@sequence}. With {@code
 * -Dcairn.rewrite=true} the file in src/test/resources is rewritten with actual outputs.
 */
class RangeTombstoneGoldenTest {
  private static final TableOptions TINY_BLOCKS = new TableOptions(24, 1, 10);

  @TestFactory
  Stream<DynamicTest> goldenCases() {
    return DataDrivenFile.dynamicTests(
        DataDrivenFile.sourcePath("core", "dev/cairn/table/range_tombstones.txt"), RangeTombstoneGoldenTest::run);
  }

  private static String run(DataDrivenFile.Case c) {
    try {
      return switch (c.verb()) {
        case "walk" -> walk(c);
        case "append" -> append(c, Boolean.parseBoolean(c.args().get("bottom")));
        default -> throw new IllegalArgumentException("unknown command " + c.verb());
      };
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static String walk(DataDrivenFile.Case c) throws IOException {
    List<TableReader> files = new ArrayList<>();
    List<String> out = new ArrayList<>();
    try {
      for (String line : c.body()) {
        if (line.startsWith("file ")) {
          files.add(table(line.substring("file ".length()), files.size()));
        } else if (line.startsWith("read ")) {
          for (String read : line.substring("read ".length()).trim().split("\\s+")) {
            String[] keyAt = read.split("@");
            out.add(read + ": " + walkRead(files, TestKeys.bytes(keyAt[0]), Long.parseLong(keyAt[1])));
          }
        }
      }
    } finally {
      for (TableReader r : files) {
        r.close();
      }
    }
    return String.join("\n", out);
  }

  private static String walkRead(List<TableReader> files, byte[] key, long snapshot) {
    for (int i = 0; i < files.size(); i++) {
      LookupResult r = files.get(i).get(new LookupKey(key, snapshot), true);
      if (r.isDecided()) {
        return show(r) + " (file " + i + ")";
      }
    }
    return "absent (no file)";
  }

  private static String append(DataDrivenFile.Case c, boolean bottom) throws IOException {
    String tableLine = c.body().stream().filter(l -> l.startsWith("table ")).findFirst().orElseThrow();
    String incomingLine = c.body().stream().filter(l -> l.startsWith("incoming ")).findFirst().orElseThrow();
    Parsed incoming = parse(incomingLine.substring("incoming ".length()));
    InMemoryFile file = new InMemoryFile();
    Parsed old = parse(tableLine.substring("table ".length()));
    TableSummary first = write(file, old);
    List<String> out = new ArrayList<>();
    long newest = incoming.entries.keySet().stream().mapToLong(InternalKey::sequence).max().orElse(0);
    for (RangeTombstone t : incoming.ranges.all()) {
      newest = Math.max(newest, t.sequence());
    }
    RangeTombstones all = RangeTombstones.union(List.of(old.ranges, incoming.ranges));
    long oldest = newest + 1;
    TableAppender.Result r;
    Set<Long> oldOffsets = new HashSet<>();
    try (TableReader before = TableReader.open(file, "t.sst", 1, first.footerOffset(), null)) {
      for (int i = 0; i < before.index().size(); i++) {
        oldOffsets.add(before.index().handle(i).offset());
      }
      r = new TableAppender(before, file, file, TINY_BLOCKS, 0.02,
          it -> new CompactionOutputIterator(it, new long[0], oldest, bottom).withRangeTombstones(all), IoTag.USER_READ)
          .append(new ArrayList<>(incoming.entries.entrySet()), incoming.ranges);
    }
    try (TableReader after = TableReader.open(file, "t.sst", 1, r.summary().footerOffset(), null)) {
      int kept = 0;
      for (int i = 0; i < after.index().size(); i++) {
        BlockHandle h = after.index().handle(i);
        kept += oldOffsets.contains(h.offset()) ? 1 : 0;
      }
      out.add("blocks: " + oldOffsets.size() + " before, " + kept + " kept in place, " + r.dirtyBlocks() + " merged");
      List<String> entries = new ArrayList<>();
      try (InternalIterator it = after.iterator(false, IoTag.USER_READ)) {
        for (it.seekToFirst(); it.isValid(); it.next()) {
          entries.add(InternalKey.describe(it.key()) + (it.value().length == 0 ? "" : "=" + TestKeys.string(it.value())));
        }
      }
      out.add("entries: " + (entries.isEmpty() ? "(none)" : String.join(" ", entries)));
      out.add("ranges: " + TestKeys.describe(after.rangeTombstones()));
      out.add("bounds: " + InternalKey.describe(r.summary().smallest()) + " .. " + InternalKey.describe(r.summary().largest()));
      Set<String> keys = new java.util.TreeSet<>();
      old.entries.keySet().forEach(k -> keys.add(TestKeys.string(InternalKey.userKey(k))));
      incoming.entries.keySet().forEach(k -> keys.add(TestKeys.string(InternalKey.userKey(k))));
      List<String> reads = new ArrayList<>();
      for (String k : keys) {
        reads.add(k + "=" + show(after.get(new LookupKey(TestKeys.bytes(k), InternalKey.MAX_SEQUENCE), true)));
      }
      out.add("reads: " + String.join(" ", reads));
    }
    return String.join("\n", out);
  }

  private record Parsed(TreeMap<byte[], byte[]> entries, RangeTombstones ranges) {}

  /** {@code ENTRIES | ranges: RANGES} (either part may be {@code -}). */
  private static Parsed parse(String spec) {
    String[] parts = spec.split("\\|");
    TreeMap<byte[], byte[]> entries = new TreeMap<>(InternalKeyComparator.INSTANCE);
    for (String token : parts[0].trim().split("\\s+")) {
      if (token.equals("-") || token.isEmpty()) {
        continue;
      }
      String[] userAndRest = token.split("@");
      String[] seqAndType = userAndRest[1].split(":");
      String[] typeAndValue = seqAndType[1].split("=");
      entries.put(InternalKey.encode(TestKeys.bytes(userAndRest[0]), Long.parseLong(seqAndType[0]),
          ValueType.valueOf(typeAndValue[0])), typeAndValue.length > 1 ? TestKeys.bytes(typeAndValue[1]) : new byte[0]);
    }
    RangeTombstones ranges = RangeTombstones.EMPTY;
    if (parts.length > 1) {
      String r = parts[1].trim();
      r = r.startsWith("ranges:") ? r.substring("ranges:".length()).trim() : r;
      ranges = r.equals("-") ? RangeTombstones.EMPTY : TestKeys.ranges(r);
    }
    return new Parsed(entries, ranges);
  }

  private static TableReader table(String spec, int number) throws IOException {
    InMemoryFile file = new InMemoryFile();
    TableSummary s = write(file, parse(spec));
    return TableReader.open(file, "t" + number + ".sst", number, s.footerOffset(), null);
  }

  private static TableSummary write(InMemoryFile file, Parsed p) throws IOException {
    TableBuilder b = new TableBuilder(file, TINY_BLOCKS);
    for (Map.Entry<byte[], byte[]> e : p.entries.entrySet()) {
      b.add(e.getKey(), e.getValue());
    }
    p.ranges.all().forEach(b::addRangeTombstone);
    return b.finish();
  }

  private static String show(LookupResult r) {
    return switch (r.kind()) {
      case FOUND -> TestKeys.string(r.value());
      case DELETED -> "deleted";
      case NOT_PRESENT -> "absent";
    };
  }
}
