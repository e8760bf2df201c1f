package dev.cairn.read;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.cairn.iter.ListIterator;
import dev.cairn.iter.TestKeys;
import dev.cairn.key.InternalKey;
import dev.cairn.key.ValueType;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Data-driven cases in {@code compaction_filter.txt}: input, {@code ----}, expected output. With
 * {@code -Dcairn.rewrite=true} the file in src/test/resources is rewritten with actual outputs.
 */
class CompactionFilterGoldenTest {
  private static final String RESOURCE = "compaction_filter.txt";
  private static final Path SOURCE = Path.of("src/test/resources/dev/cairn/read", RESOURCE);

  @Test
  void goldenCases() throws IOException {
    String text;
    try (InputStream in = CompactionFilterGoldenTest.class.getResourceAsStream(RESOURCE)) {
      text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
    StringBuilder rewritten = new StringBuilder();
    List<String> lines = text.lines().toList();
    int i = 0;
    while (i < lines.size()) {
      String line = lines.get(i);
      if (!line.startsWith("snapshots:")) {
        rewritten.append(line).append('\n');
        i++;
        continue;
      }
      String header = line;
      String input = lines.get(i + 1);
      assertEquals("----", lines.get(i + 2), "separator after case at line " + (i + 1));
      String expected = lines.get(i + 3) + "\n" + lines.get(i + 4);
      String actual = run(header, input);
      if (Boolean.getBoolean("cairn.rewrite")) {
        rewritten.append(header).append('\n').append(input).append("\n----\n").append(actual).append('\n');
      } else {
        assertEquals(expected, actual, "case at line " + (i + 1) + ": " + header + " / " + input);
      }
      i += 5;
    }
    if (Boolean.getBoolean("cairn.rewrite")) {
      Files.writeString(SOURCE, rewritten.toString());
    }
  }

  private static String run(String header, String input) {
    String[] parts = header.substring("snapshots:".length()).split("bottom:");
    String snapshotText = parts[0].trim();
    long[] snapshots = snapshotText.equals("-")
        ? new long[0]
        : Arrays.stream(snapshotText.split("\\s+")).mapToLong(Long::parseLong).toArray();
    boolean bottom = Boolean.parseBoolean(parts[1].trim());

    List<Map.Entry<byte[], byte[]>> entries = new ArrayList<>();
    long last = 0;
    for (String token : input.trim().split("\\s+")) {
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
      String output = String.join(" ", TestKeys.drain(it));
      return output + "\ndropped: " + it.droppedEntries() + " tombstones: " + it.droppedTombstones();
    }
  }
}
