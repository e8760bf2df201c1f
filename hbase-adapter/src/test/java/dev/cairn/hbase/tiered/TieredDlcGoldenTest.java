package dev.cairn.hbase.tiered;

import dev.cairn.compaction.ByteSizes;
import dev.cairn.compaction.dlc.LoadClass;
import dev.cairn.testkit.DataDrivenFile;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * Store files and load in, decision out: every case in {@code src/test/resources/tiered/*.txt}
 * ({@link DataDrivenFile}). One command:
 *
 * <pre>
 * decide load=high blocking=16 kind=system compacting=0 held-ms=0 margin=4 max-delay=60000
 *        part=4 fresh=8MiB min=3 max=10 ratio=1.2
 * files: 1:200MiB/150MiB 2:40MiB 3:8MiB:ref 4:8MiB:bulk
 * store: 2 3
 * </pre>
 *
 * {@code files:} lists the eligible files oldest first as {@code id:size[/cached][:ref][:bulk]};
 * {@code store:} the store's own selection by id (absent: none). Defaults are the ones shown
 * ({@code kind} one of user, major, off-peak, system). With {@code held-ms} the policy decides,
 * the simulated clock moves on by that many milliseconds, and the second decision is printed.
 *
 * <p>Rewrite the expected outputs with {@code -Dcairn.rewrite=true}.
 */
class TieredDlcGoldenTest {

  @TestFactory
  Stream<DynamicTest> goldenFiles() {
    return DataDrivenFile.dynamicTests(
        DataDrivenFile.sourcePath("hbase-adapter", "tiered"), TieredDlcGoldenTest::runCase);
  }

  static String runCase(DataDrivenFile.Case c) {
    if (!c.verb().equals("decide")) {
      throw new IllegalArgumentException("unknown command: " + c.verb());
    }
    Map<String, String> args = c.args();
    TieredDlcConfig config = new TieredDlcConfig(
        Integer.parseInt(args.getOrDefault("margin", "4")),
        Long.parseLong(args.getOrDefault("max-delay", "60000")),
        Integer.parseInt(args.getOrDefault("part", "4")),
        ByteSizes.parse(args.getOrDefault("fresh", "8MiB")),
        Integer.parseInt(args.getOrDefault("min", "3")),
        Integer.parseInt(args.getOrDefault("max", "10")),
        Double.parseDouble(args.getOrDefault("ratio", "1.2")));
    List<StoreFile> files = new ArrayList<>();
    List<StoreFile> selection = new ArrayList<>();
    Map<Long, StoreFile> byId = new HashMap<>();
    for (String line : c.body()) {
      if (line.startsWith("files:")) {
        for (String word : words(line)) {
          StoreFile f = file(word);
          files.add(f);
          byId.put(f.id(), f);
        }
      } else if (line.startsWith("store:")) {
        for (String word : words(line)) {
          selection.add(byId.get(Long.parseLong(word)));
        }
      } else {
        throw new IllegalArgumentException("unknown line: " + line);
      }
    }
    StoreRequest request = new StoreRequest(files, Integer.parseInt(args.getOrDefault("compacting", "0")),
        Integer.parseInt(args.getOrDefault("blocking", "16")), kind(args.getOrDefault("kind", "system")), selection);
    LoadClass load = LoadClass.valueOf(args.getOrDefault("load", "high").toUpperCase(Locale.ROOT));
    long[] now = {0};
    TieredDlcPolicy policy = new TieredDlcPolicy(config, () -> now[0]);
    TieredDlcPolicy.Decision decision = policy.decide(load, request);
    if (args.containsKey("held-ms")) {
      now[0] += Long.parseLong(args.get("held-ms")) * 1_000_000L;
      decision = policy.decide(load, request);
    }
    TieredDlcPolicy.Counters n = policy.counters();
    List<String> ids = new ArrayList<>();
    decision.selection().forEach(f -> ids.add(Long.toString(f.id())));
    return String.join("\n",
        decision.action().toString(),
        "selection: " + (ids.isEmpty() ? "-" : String.join(" ", ids)),
        "reason: " + decision.reason(),
        String.format(Locale.ROOT, "counters: delayed=%d part=%d bound=%d colder=%d spared=%s delaying=%s",
            n.delayedCompactions(), n.partRuns(), n.releasesAtBound(), n.colderChoices(),
            ByteSizes.format(n.sparedCachedBytes()), policy.delaying()));
  }

  private static List<String> words(String line) {
    String rest = line.substring(line.indexOf(':') + 1).trim();
    return rest.isEmpty() ? List.of() : List.of(rest.split("\\s+"));
  }

  /** {@code id:size[/cached][:ref][:bulk]}. */
  private static StoreFile file(String word) {
    String[] parts = word.split(":");
    String[] sizes = parts[1].split("/");
    boolean ref = false;
    boolean bulk = false;
    for (int i = 2; i < parts.length; i++) {
      switch (parts[i]) {
        case "ref" -> ref = true;
        case "bulk" -> bulk = true;
        default -> throw new IllegalArgumentException("unknown file flag: " + parts[i]);
      }
    }
    return new StoreFile(Long.parseLong(parts[0]), ByteSizes.parse(sizes[0]),
        sizes.length > 1 ? ByteSizes.parse(sizes[1]) : 0, ref, bulk);
  }

  private static StoreRequest.Kind kind(String text) {
    return StoreRequest.Kind.valueOf(text.toUpperCase(Locale.ROOT).replace('-', '_'));
  }
}
