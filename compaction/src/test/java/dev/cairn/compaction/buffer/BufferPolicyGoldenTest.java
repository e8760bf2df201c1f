package dev.cairn.compaction.buffer;


import dev.cairn.testkit.DataDrivenFile;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * The compaction buffer's policy, numbers in, decision out: every case in {@code
 * src/test/resources/buffer/*.txt}, in the golden format of {@link DataDrivenFile}. Commands, each
 * followed by one event per line and answered with one line per event:
 *
 * <pre>
 * freeze tolerance=0.1          events: "merge IN LEVEL_AFTER" | "pointer PREVIOUS NEXT" (- = none)
 * trim-schedule                 events: "pass runs=ID,... files=N,..." (run ids newest first)
 * cold-runs budget=4 cache=100  events: "extra BYTES"
 * bloom ratio=10                events: "bits N"
 * trim-pacing base=B block=B passes=N unit=B max-ms=M   events: "at bytes=N ms=M"
 * idle idle-ms=M                events: "pass served=N ms=T" (reads served so far, watching from 0 at 0)
 * </pre>
 *
 * Rewrite the expected outputs with {@code -Dcairn.rewrite=true}.
 */
class BufferPolicyGoldenTest {

  @TestFactory
  Stream<DynamicTest> goldenFiles() {
    return DataDrivenFile.dynamicTests(
        DataDrivenFile.sourcePath("compaction", "buffer"), BufferPolicyGoldenTest::runCase);
  }

  static String runCase(DataDrivenFile.Case c) {
    Map<String, String> args = c.args();
    List<String> events = c.body();
    List<String> out = new ArrayList<>();
    switch (c.verb()) {
      case "freeze" -> {
        double tolerance = Double.parseDouble(args.get("tolerance"));
        FreezeRound round = FreezeRound.NEW;
        for (String e : events) {
          String[] w = e.trim().split("\\s+");
          if (w[0].equals("merge")) {
            round = round.afterMerge(Long.parseLong(w[1]), Long.parseLong(w[2]), tolerance);
            out.add("merged " + round.mergedInBytes() + (round.frozen() ? " frozen" : " open"));
          } else if (w[0].equals("pointer")) {
            boolean wrapped = FreezeRound.pointerWrapped(key(w[1]), key(w[2]));
            round = wrapped ? FreezeRound.NEW : round;
            out.add(wrapped ? "new round" : "same round");
          } else {
            throw new IllegalArgumentException("unknown freeze event: " + e);
          }
        }
      }
      case "trim-schedule" -> {
        TrimSchedule schedule = TrimSchedule.FIRST_PASS;
        for (String e : events) {
          Map<String, String> pass = DataDrivenFile.keyValues(e);
          List<Long> runs = ids(pass.get("runs"));
          List<Long> files = ids(pass.get("files"));
          Set<Long> judgedFiles = new TreeSet<>();
          files.stream().filter(schedule::judgesFile).forEach(judgedFiles::add);
          out.add("runs " + new TreeSet<>(schedule.judgeableRuns(runs)) + " files " + judgedFiles);
          schedule = schedule.afterPass(runs, Set.copyOf(files));
        }
      }
      case "cold-runs" -> {
        double budget = Double.parseDouble(args.get("budget"));
        long cache = Long.parseLong(args.get("cache"));
        for (String e : events) {
          long extra = Long.parseLong(e.trim().split("\\s+")[1]);
          out.add(ColdRunBudget.keepsColdRuns(budget, () -> extra, cache) ? "keep cold runs" : "trim cold runs");
        }
      }
      case "trim-pacing" -> {
        BufferConfig config = BufferConfig.defaults()
            .withTrimIntervalMillis(Long.parseLong(args.get("max-ms")))
            .withTrimPassesPerBaseLevel(Integer.parseInt(args.get("passes")))
            .withTrimUnitBytes(Long.parseLong(args.get("unit")));
        TrimPacing pacing = TrimPacing.of(config, Long.parseLong(args.get("base")), Long.parseLong(args.get("block")));
        out.add("pass every " + pacing.bytesPerPass() + " bytes or " + pacing.maxIntervalMillis() + " ms, unit "
            + pacing.unitBytes() + " bytes, poll " + pacing.pollMillis() + " ms");
        for (String e : events) {
          Map<String, String> at = DataDrivenFile.keyValues(e);
          long grown = Long.parseLong(at.getOrDefault("grown", "0"));
          out.add(pacing.due(Long.parseLong(at.get("bytes")), grown, Long.parseLong(at.get("ms"))) ? "due" : "wait");
        }
      }
      case "idle" -> {
        long idleMs = Long.parseLong(args.get("idle-ms"));
        IdleBuffer state = IdleBuffer.watching(0, 0);
        for (String e : events) {
          Map<String, String> pass = DataDrivenFile.keyValues(e);
          long now = Long.parseLong(pass.get("ms"));
          state = state.atPass(Long.parseLong(pass.get("served")), now);
          out.add(state.idle(now, idleMs) ? "drop the level's buffer" : "keep");
        }
      }
      case "bloom" -> {
        int ratio = Integer.parseInt(args.get("ratio"));
        for (String e : events) {
          out.add(String.valueOf(BufferBloom.bitsPerKey(Integer.parseInt(e.trim().split("\\s+")[1]), ratio)));
        }
      }
      default -> throw new IllegalArgumentException("unknown command: " + c.verb());
    }
    return String.join("\n", out);
  }

  private static byte[] key(String word) {
    return word.equals("-") ? null : word.getBytes(StandardCharsets.US_ASCII);
  }

  private static List<Long> ids(String list) {
    List<Long> ids = new ArrayList<>();
    if (list != null && !list.isEmpty()) {
      for (String id : list.split(",")) {
        ids.add(Long.parseLong(id));
      }
    }
    return ids;
  }
}
