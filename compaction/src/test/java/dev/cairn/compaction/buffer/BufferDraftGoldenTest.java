package dev.cairn.compaction.buffer;


import dev.cairn.compaction.testing.BufferText;
import dev.cairn.compaction.testing.BufferText.TestFile;
import dev.cairn.model.BufferEntry;
import dev.cairn.model.BufferedLevels;
import dev.cairn.model.KeyFilter;
import dev.cairn.model.LevelChanges;
import dev.cairn.testkit.DataDrivenFile;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * How compactions and trims change the compaction buffer, shape in, buffer out: every case in
 * {@code src/test/resources/buffer-draft/*.txt}, levels and buffers written as {@link BufferText}.
 * Commands:
 *
 * <pre>
 * compaction in=1 out=2 append=true carry=true   directives "delete: L1 1 2", "add: L2 6"
 *     the draft of that compaction plus its garbage collection; prints the files appended and
 *     dropped, then every buffer run after. With "cold: 1 4" those files have no warm block at
 *     install and are left out where the rule allows (cold arrivals); prints how many were.
 *     With budget=BYTES (files are 1000 bytes each) the space bound follows ({@link
 *     BufferDraft#fitSpace}), with the heat of the last trim pass from "heat: 3=0.5 4=0.1f"
 *     (cached fractions; f: the file's filter is known) and, for files the pass did not see, the cached fractions measured at install from "now: 4=0 5=0.8"
 *     ({@link BufferHeat#withUnseen}; unlisted ones are warming), and prints
 *     the entries evicted and the buffer's extra bytes after
 * compaction in=1 out=2 move=true               a level move (two-phase round's end) instead:
 *     the input level's buffer becomes the output level's
 * collect                                        the garbage collection alone
 * trim unit=2 fraction=0.8 keep-cold=true        directives "blocks 3: b d f h cached=.xx."
 *     (file 3's blocks: separator keys, cached or not, 1 byte each) and
 *     "schedule L1 newest=9 files=3,4"; prints the planned splits
 * rewrite fraction=0.5                            directives "blocks 3: b d f h j zz cached=......"
 *     (as trim's; the flags are not read) and "new 3: 50[c..x]" (the range file 3's rewrite would
 *     have as file 50); prints the planned part rewrites ({@link PartCompaction}), then every
 *     buffer run after the plans with a "new" are applied ({@link PartCompaction#apply})
 * </pre>
 *
 * New buffer runs take ids from 100 up. Rewrite the expected outputs with {@code -Dcairn.rewrite=true}.
 */
class BufferDraftGoldenTest {

  @TestFactory
  Stream<DynamicTest> goldenFiles() {
    return DataDrivenFile.dynamicTests(
        DataDrivenFile.sourcePath("compaction", "buffer-draft"), BufferDraftGoldenTest::runCase);
  }

  static String runCase(DataDrivenFile.Case c) {
    Map<String, String> args = c.args();
    BufferText.Levels levels = new BufferText.Levels();
    List<String> directives = BufferText.parse(c.body(), levels);
    AtomicLong ids = new AtomicLong(100);
    List<String> out = new ArrayList<>();
    switch (c.verb()) {
      case "compaction" -> {
        Changes changes = new Changes(levels);
        Map<Long, Double> heatByFile = new HashMap<>();
        Map<Long, KeyFilter> filterByFile = new HashMap<>();
        Map<Long, Double> heatNow = new HashMap<>();
        Set<Long> cold = null;
        for (String d : directives) {
          if (d.startsWith("cold:")) { // "cold: 1 4": files with no warm block at install
            cold = new HashSet<>();
            for (String w : d.substring(5).trim().split("\\s+")) {
              cold.add(Long.parseLong(w));
            }
          } else if (d.startsWith("now:")) { // "now: 4=0 5=0.8": cached fractions measured at install
            for (String w : d.substring(4).trim().split("\\s+")) {
              String[] kv = w.split("=");
              heatNow.put(Long.parseLong(kv[0]), Double.parseDouble(kv[1]));
            }
          } else if (d.startsWith("heat:")) { // "heat: 3=0.5 4=0.1f": file 3 half cached; 4 a tenth, filter known
            for (String w : d.substring(5).trim().split("\\s+")) {
              String[] kv = w.split("=");
              long n = Long.parseLong(kv[0]);
              heatByFile.put(n, Double.parseDouble(kv[1].replace("f", "")));
              if (kv[1].endsWith("f")) {
                filterByFile.put(n, key -> true);
              }
            }
          } else {
            changes.read(d);
          }
        }
        int maxLevel = Math.max(levels.maxLevel(), changes.maxLevel());
        BufferDraft<TestFile> draft = new BufferDraft<>(levels, changes, ids::getAndIncrement);
        Set<Long> coldFiles = cold == null ? Set.of() : cold; // no "cold:": every file warm, all appended
        int appended = 0;
        if (Boolean.parseBoolean(args.get("move"))) {
          draft.moveLevel(Integer.parseInt(args.get("in")), Integer.parseInt(args.get("out")));
        } else {
          appended = draft.applyCompaction(Integer.parseInt(args.get("in")), Integer.parseInt(args.get("out")),
              Boolean.parseBoolean(args.get("append")), Boolean.parseBoolean(args.get("carry")),
              f -> !coldFiles.contains(f.number()));
        }
        int dropped = draft.collectGarbage();
        out.add("appended " + appended + ", dropped " + dropped);
        if (cold != null) {
          out.add("cold left out " + draft.coldArrivalsLeftOut());
        }
        if (!draft.scanSources().isEmpty()) { // "scans: 6<-1,4 7<-1,5": what a scan may read instead of each output
          StringBuilder sb = new StringBuilder("scans:");
          draft.scanSources().forEach((output, sources) -> sb.append(' ').append(output).append("<-")
              .append(String.join(",", sources.stream().map(f -> Long.toString(f.number())).toList())));
          out.add(sb.toString());
        }
        if (args.containsKey("budget")) {
          BufferHeat heat = new BufferHeat(heatByFile, filterByFile)
              .withUnseen(draft.files(maxLevel + 1), f -> heatNow.getOrDefault(f.number(), Double.POSITIVE_INFINITY));
          int evicted = draft.fitSpace(Long.parseLong(args.get("budget")), maxLevel + 1, heat);
          draft.collectGarbage();
          out.add("evicted " + evicted + ", extra " + draft.extraBytes(maxLevel + 1));
        }
        out.addAll(renderDraft(draft, maxLevel));
      }
      case "collect" -> {
        BufferDraft<TestFile> draft = new BufferDraft<>(levels, ids::getAndIncrement);
        for (int level = 1; level <= levels.maxLevel(); level++) {
          draft.runs(level); // touch every level, so the collection judges it
        }
        out.add("dropped " + draft.collectGarbage());
        out.addAll(renderDraft(draft, levels.maxLevel()));
      }
      case "rewrite" -> {
        Map<Long, TrimPlanner.BlockLayout> layouts = new HashMap<>();
        Map<Long, TestFile> rewritten = new HashMap<>();
        for (String d : directives) {
          String[] w = d.trim().split("\\s+");
          if (w[0].equals("blocks")) {
            layouts.put(Long.parseLong(w[1].replace(":", "")), blockLayout(w));
          } else if (w[0].equals("new")) {
            int open = w[2].indexOf('[');
            byte[][] range = BufferText.range(w[2].substring(open));
            rewritten.put(Long.parseLong(w[1].replace(":", "")),
                new TestFile(Long.parseLong(w[2].substring(0, open)), range[0], range[1]));
          } else if (!d.isBlank()) {
            throw new IllegalArgumentException("unknown rewrite directive: " + d);
          }
        }
        List<PartCompaction.Plan<TestFile>> plans = PartCompaction.plan(levels, levels.maxLevel() + 1,
            f -> layouts.get(f.number()), Double.parseDouble(args.get("fraction")));
        BufferDraft<TestFile> draft = new BufferDraft<>(levels, ids::getAndIncrement);
        for (PartCompaction.Plan<TestFile> p : plans) {
          StringBuilder blocks = new StringBuilder();
          p.blocks().forEach(r -> blocks.append(" [").append(r.first()).append(',').append(r.end()).append(')'));
          out.add("#" + p.file().number() + " in " + BufferText.render(new ArrayList<>(p.parts())) + ": blocks" + blocks
              + " kept " + p.keptBytes() + "/" + p.dataBytes());
          TestFile to = rewritten.get(p.file().number());
          if (to != null) {
            out.add("  -> #" + to.number() + (PartCompaction.apply(draft, p, to, levels.maxLevel() + 1) ? "" : " (not applied)"));
          }
        }
        if (plans.isEmpty()) {
          out.add("no rewrite");
        } else {
          out.addAll(renderDraft(draft, levels.maxLevel()));
        }
      }
      case "trim" -> {
        Map<Long, TrimPlanner.BlockLayout> layouts = new HashMap<>();
        List<TrimSchedule> schedules = new ArrayList<>();
        for (int level = 0; level <= levels.maxLevel(); level++) {
          schedules.add(TrimSchedule.FIRST_PASS);
        }
        for (String d : directives) {
          String[] w = d.trim().split("\\s+");
          if (w[0].equals("blocks")) {
            layouts.put(Long.parseLong(w[1].replace(":", "")), blockLayout(w));
          } else if (w[0].equals("schedule")) {
            int level = Integer.parseInt(w[1].substring(1));
            long newest = Long.parseLong(w[2].substring("newest=".length()));
            Set<Long> files = new HashSet<>();
            for (String n : w[3].substring("files=".length()).split(",")) {
              files.add(Long.parseLong(n));
            }
            schedules.set(level, new TrimSchedule(newest, files));
          } else if (!d.isBlank()) {
            throw new IllegalArgumentException("unknown trim directive: " + d);
          }
        }
        TrimPlanner<TestFile> planner = new TrimPlanner<>(Long.parseLong(args.get("unit")),
            Double.parseDouble(args.get("fraction")), Boolean.parseBoolean(args.get("keep-cold")),
            f -> layouts.get(f.number()));
        for (TrimPlanner.Split<TestFile> s : planner.plan(levels, levels.maxLevel() + 1, schedules)) {
          out.add("L" + s.level() + " run " + s.runId() + ": " + BufferText.render(s.entry()) + " -> "
              + BufferText.render(s.pieces()) + " (" + s.removedRuns() + " removed)");
        }
        if (out.isEmpty()) {
          out.add("no split");
        }
      }
      default -> throw new IllegalArgumentException("unknown command: " + c.verb());
    }
    return String.join("\n", out);
  }

  /** "blocks 3: b d f h cached=.xx." as file 3's layout: separator keys, 1 byte each, warm or not. */
  private static TrimPlanner.BlockLayout blockLayout(String[] w) {
    int n = w.length - 3;
    byte[][] upper = new byte[n][];
    long[] bytes = new long[n];
    boolean[] cached = new boolean[n];
    String flags = w[w.length - 1].substring("cached=".length());
    for (int i = 0; i < n; i++) {
      upper[i] = BufferText.key(w[2 + i]);
      bytes[i] = 1;
      cached[i] = flags.charAt(i) == 'x';
    }
    return new TrimPlanner.BlockLayout(upper, bytes, cached);
  }

  private static List<String> renderDraft(BufferDraft<TestFile> draft, int maxLevel) {
    return BufferText.render(new BufferedLevels<>() {
      @Override public List<TestFile> files(int level) { return List.of(); }
      @Override public List<dev.cairn.model.BufferRun<TestFile>> bufferRuns(int level) {
        return draft.runs(level);
      }
    }, maxLevel);
  }

  /** The level changes the directives name. */
  private static final class Changes implements LevelChanges<TestFile> {
    private final BufferText.Levels levels;
    private final Map<Integer, List<TestFile>> deleted = new HashMap<>();
    private final Map<Integer, List<TestFile>> added = new HashMap<>();

    Changes(BufferText.Levels levels) {
      this.levels = levels;
    }

    void read(String directive) {
      String[] w = directive.trim().split("\\s+");
      Map<Integer, List<TestFile>> into = switch (w[0]) {
        case "delete:" -> deleted;
        case "add:" -> added;
        default -> throw new IllegalArgumentException("unknown compaction directive: " + directive);
      };
      int level = Integer.parseInt(w[1].substring(1));
      for (int i = 2; i < w.length; i++) {
        into.computeIfAbsent(level, l -> new ArrayList<>()).add(levels.file(w[i]));
      }
    }

    int maxLevel() {
      int max = 0;
      for (int l : deleted.keySet()) {
        max = Math.max(max, l);
      }
      for (int l : added.keySet()) {
        max = Math.max(max, l);
      }
      return max;
    }

    @Override
    public Set<Integer> changedLevels() {
      Set<Integer> levels = new TreeSet<>(deleted.keySet());
      levels.addAll(added.keySet());
      return levels;
    }

    @Override
    public List<TestFile> deleted(int level) {
      return deleted.getOrDefault(level, List.of());
    }

    @Override
    public List<TestFile> added(int level) {
      return added.getOrDefault(level, List.of());
    }

    @Override
    public List<TestFile> footerUpdates(int level) {
      return List.of();
    }
  }
}
