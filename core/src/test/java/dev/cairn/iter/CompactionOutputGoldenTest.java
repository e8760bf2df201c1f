package dev.cairn.iter;


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
 * Data-driven cases in {@code compaction_filter.txt}, run by compaction's golden runner
 * ({@link DataDrivenFile}, from cairn-compaction's test-jar): a command line {@code snapshots: ...
 * bottom: ...}, the input entries, {@code ----}, the expected output. With {@code
 * -Dcairn.rewrite=true} the file in src/test/resources is rewritten with actual outputs.
 */
class CompactionFilterGoldenTest {

  @TestFactory
  Stream<DynamicTest> goldenCases() {
    return DataDrivenFile.dynamicTests(
        DataDrivenFile.sourcePath("core", "dev/cairn/iter/compaction_filter.txt"), CompactionFilterGoldenTest::run);
  }

  private static String run(DataDrivenFile.Case c) {
    if (!c.command().startsWith("snapshots:") || c.input().size() != 2) {
      throw new IllegalArgumentException("want 'snapshots: ... bottom: ...' and one line of entries");
    }
    String[] parts = c.command().substring("snapshots:".length()).split("bottom:");
    String snapshotText = parts[0].trim();
    long[] snapshots = snapshotText.equals("-")
        ? new long[0]
        : Arrays.stream(snapshotText.split("\\s+")).mapToLong(Long::parseLong).toArray();
    boolean bottom = Boolean.parseBoolean(parts[1].trim());

    List<Map.Entry<byte[], byte[]>> entries = new ArrayList<>();
    long last = 0;
    for (String token : c.input().get(1).trim().split("\\s+")) {
      String[] userAndRest = token.split("@");
      String[] seqAndType = userAndRest[1].split(":");
      long sequence = Long.parseLong(seqAndType[0]);
      last = Math.max(last, sequence);
      entries.add(Map.entry(
          InternalKey.encode(TestKeys.bytes(userAndRest[0]), sequence, ValueType.valueOf(seqAndType[1])),
          new byte[0]));
    }
    long smallest = snapshots.length == 0 ? last : snapshots[0];
    try (CompactionFilterIterator it =
        new CompactionFilterIterator(new ListIterator(entries), snapshots, smallest, bottom)) {
      it.seekToFirst();
      List<String> kept = TestKeys.drain(it);
      // The runner's outputs have no blank lines: an empty result is written "(none)".
      String output = kept.isEmpty() ? "(none)" : String.join(" ", kept);
      return output + "\ndropped: " + it.droppedEntries() + " tombstones: " + it.droppedTombstones();
    }
  }
}
