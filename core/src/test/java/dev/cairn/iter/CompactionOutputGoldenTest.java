package dev.cairn.iter;


import dev.cairn.CompactionFilter;
import dev.cairn.MergeOperator;
import dev.cairn.key.Merger;
import dev.cairn.key.RangeTombstone;
import dev.cairn.key.RangeTombstones;
import dev.cairn.key.InternalKey;
import dev.cairn.key.ValueType;
import dev.cairn.testkit.DataDrivenFile;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * Data-driven cases in {@code compaction_output.txt}, run by compaction's golden runner
 * ({@link DataDrivenFile}, from cairn-compaction's test-jar): a command line {@code snapshots: ...
 * bottom: ...} (with a filter, a merge operator), the input entries, {@code ----}, the expected output. With {@code
 * -Dcairn.rewrite=true} the file in src/test/resources is rewritten with actual outputs.
 */
class CompactionOutputGoldenTest {

  @TestFactory
  Stream<DynamicTest> goldenCases() {
    return DataDrivenFile.dynamicTests(
        DataDrivenFile.sourcePath("core", "dev/cairn/iter/compaction_output.txt"), CompactionOutputGoldenTest::run);
  }

  private static String run(DataDrivenFile.Case c) {
    if (!c.command().startsWith("snapshots:") || c.input().size() != 2) {
      throw new IllegalArgumentException("want 'snapshots: ... bottom: ...' and one line of entries");
    }
    String command = c.command();
    RangeTombstones ranges = RangeTombstones.EMPTY;
    int rangesAt = command.indexOf("ranges:");
    if (rangesAt >= 0) {
      int end = command.indexOf("merge:", rangesAt);
      ranges = TestKeys.ranges(command.substring(rangesAt + "ranges:".length(), end < 0 ? command.length() : end).trim());
      command = command.substring(0, rangesAt) + (end < 0 ? "" : command.substring(end));
    }
    Merger merger = Merger.NONE;
    int mergeAt = command.indexOf("merge:");
    if (mergeAt >= 0) {
      merger = Merger.of(new AppendOperator(command.substring(mergeAt + "merge:".length()).trim().equals("partial")));
      command = command.substring(0, mergeAt);
    }
    String[] withFilter = command.split("filter:");
    String[] parts = withFilter[0].substring("snapshots:".length()).split("bottom:");
    String snapshotText = parts[0].trim();
    long[] snapshots = snapshotText.equals("-")
        ? new long[0]
        : Arrays.stream(snapshotText.split("\\s+")).mapToLong(Long::parseLong).toArray();
    boolean bottom = Boolean.parseBoolean(parts[1].trim());
    CompactionFilter filter = withFilter.length > 1 ? filter(withFilter[1].trim()) : null;

    List<Map.Entry<byte[], byte[]>> entries = new ArrayList<>();
    long last = 0;
    for (String token : c.input().get(1).trim().split("\\s+")) {
      String[] userAndRest = token.split("@");
      String[] seqAndType = userAndRest[1].split(":");
      long sequence = Long.parseLong(seqAndType[0]);
      last = Math.max(last, sequence);
      String[] typeAndValue = seqAndType[1].split("=");
      entries.add(Map.entry(
          InternalKey.encode(TestKeys.bytes(userAndRest[0]), sequence, ValueType.valueOf(typeAndValue[0])),
          typeAndValue.length > 1 ? TestKeys.bytes(typeAndValue[1]) : new byte[0]));
    }
    long smallest = snapshots.length == 0 ? last : snapshots[0];
    try (CompactionOutputIterator it = new CompactionOutputIterator(new ListIterator(entries), snapshots, smallest,
        bottom, null, filter, new CompactionFilter.Context(1, bottom), merger).withRangeTombstones(ranges)) {
      List<String> kept = new ArrayList<>();
      for (it.seekToFirst(); it.isValid(); it.next()) {
        kept.add(InternalKey.describe(it.key()) + (it.value().length == 0 ? "" : "=" + TestKeys.string(it.value())));
      }
      // The runner's outputs have no blank lines: an empty result is written "(none)".
      String output = kept.isEmpty() ? "(none)" : String.join(" ", kept);
      return output + "\ndropped: " + it.droppedEntries() + " tombstones: " + it.droppedTombstones()
          + (filter == null ? "" : "\nfilter removed: " + it.removedByFilter() + " changed: " + it.changedByFilter())
          + (merger == Merger.NONE ? "" : "\nmerged operands: " + it.mergedOperands())
          + (ranges.isEmpty() ? "" : "\ncovered: " + it.coveredEntries() + " ranges kept: " + TestKeys.describe(it.keptRangeTombstones()));
    }
  }

  /**
   * Joins a value and its operands with "+", oldest first ("v+x+y"; "x+y" on nothing); with
   * {@code partial}, combines two operands the same way ("x+y"), else declines.
   */
  private record AppendOperator(boolean partial) implements MergeOperator {
    @Override
    public String name() {
      return "append";
    }

    @Override
    public byte[] fullMerge(byte[] key, byte[] existing, List<byte[]> operands) {
      List<String> parts = new ArrayList<>();
      if (existing != null) {
        parts.add(existing.length == 0 ? "()" : TestKeys.string(existing));
      }
      operands.forEach(o -> parts.add(TestKeys.string(o)));
      return TestKeys.bytes(String.join("+", parts));
    }

    @Override
    public byte[] partialMerge(byte[] key, byte[] older, byte[] newer) {
      return partial ? TestKeys.bytes(TestKeys.string(older) + "+" + TestKeys.string(newer)) : null;
    }
  }

  /**
   * A filter from {@code remove=a,b change=c}: removes the values of the keys listed after
   * {@code remove=}, replaces those after {@code change=} by "new", keeps the others.
   */
  private static CompactionFilter filter(String spec) {
    List<String> remove = new ArrayList<>();
    List<String> change = new ArrayList<>();
    for (String part : spec.split("\\s+")) {
      String[] kv = part.split("=");
      (kv[0].equals("remove") ? remove : change).addAll(Arrays.asList(kv[1].split(",")));
    }
    return (context, key, value) -> remove.contains(TestKeys.string(key)) ? CompactionFilter.Decision.REMOVE
        : change.contains(TestKeys.string(key)) ? CompactionFilter.Decision.change(TestKeys.bytes("new"))
        : CompactionFilter.Decision.KEEP;
  }
}
