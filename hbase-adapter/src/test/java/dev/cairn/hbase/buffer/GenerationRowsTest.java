package dev.cairn.hbase.buffer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * The buffer's invariant on a model of files as sets of cells: random flushes, random
 * compactions of random live files that drop random cells (or lose track of a cell's input), and
 * random retirements. After every compaction, for every row of every generation: a row the
 * changed rows do not hold reads the same cells from the leaves as from the output, and a row
 * with a drop mask reads them from the leaves less those the mask names.
 */
class GenerationRowsTest {
  /** A file: row -> the ids of its cells. */
  private record File(int id, TreeMap<String, Set<Integer>> rows) {}

  private record Generation(File output, List<File> leaves, ChangedRows changed) {}

  @Test
  void leavesLessEachRowsMaskHoldExactlyTheOutputsCells() {
    int checkedMasks = 0;
    int checkedUnchanged = 0;
    for (long seed = 1; seed <= 40; seed++) {
      Random random = new Random(seed);
      int[] ids = {0, 0}; // next file id, next cell id
      List<File> live = new ArrayList<>();
      Map<Integer, Generation> byOutput = new HashMap<>();
      for (int step = 0; step < 60; step++) {
        int action = random.nextInt(10);
        if (action < 5 || live.size() < 2) {
          live.add(flush(random, ids));
        } else if (action < 9) {
          List<File> inputs = pick(random, live);
          File output = new File(ids[0]++, new TreeMap<>());
          ChangedRows stepRows = compact(random, inputs, output);
          List<ChangedRows> absorbed = new ArrayList<>();
          List<Integer> leafCounts = new ArrayList<>();
          List<File> leaves = new ArrayList<>();
          int[] outputOf = new int[inputs.size()];
          for (int i = 0; i < inputs.size(); i++) {
            Generation g = byOutput.remove(inputs.get(i).id());
            outputOf[i] = g == null ? -1 : absorbed.size();
            if (g != null) {
              absorbed.add(g.changed());
              leafCounts.add(g.leaves().size());
              leaves.addAll(g.leaves());
            }
          }
          for (int i = 0; i < inputs.size(); i++) {
            if (outputOf[i] < 0) {
              leaves.add(inputs.get(i));
            }
          }
          ChangedRows rows = GenerationRows.absorb(absorbed,
              leafCounts.stream().mapToInt(Integer::intValue).toArray(), stepRows, outputOf);
          live.removeAll(inputs);
          live.add(output);
          Generation g = new Generation(output, leaves, rows);
          byOutput.put(output.id(), g);
          int[] counts = check(g, "seed " + seed + " step " + step);
          checkedMasks += counts[0];
          checkedUnchanged += counts[1];
        } else if (!byOutput.isEmpty()) {
          List<Integer> held = new ArrayList<>(byOutput.keySet());
          byOutput.remove(held.get(random.nextInt(held.size()))); // retired: its output reads alone
        }
      }
    }
    assertTrue(checkedMasks > 100, "few masked rows checked: " + checkedMasks);
    assertTrue(checkedUnchanged > 100, "few unchanged rows checked: " + checkedUnchanged);
  }

  @Test
  void aGenerationOfTooManyLeavesKeepsItsChangedRowsPartial() {
    ChangedRows step = ChangedRows.builder().addRow(bytes("r"), ChangedRows.bit(0)).build();
    List<ChangedRows> absorbed = List.of(ChangedRows.NONE);
    ChangedRows rows = GenerationRows.absorb(absorbed, new int[] {63}, step, new int[] {-1, 0});
    assertEquals(ChangedRows.PARTIAL, rows.maskOf(bytes("r")));
  }

  /** Checks every row of the generation; returns {masked rows checked, unchanged rows checked}. */
  private static int[] check(Generation g, String where) {
    Set<String> rows = new TreeSet<>(g.output().rows().keySet());
    g.leaves().forEach(f -> rows.addAll(f.rows().keySet()));
    int masked = 0;
    int unchanged = 0;
    for (String row : rows) {
      long mask = g.changed().maskOf(bytes(row));
      Set<Integer> out = g.output().rows().getOrDefault(row, Set.of());
      if (mask == ChangedRows.PARTIAL) {
        continue;
      }
      Set<Integer> fromLeaves = new HashSet<>();
      for (int leaf = 0; leaf < g.leaves().size(); leaf++) {
        if ((mask & (1L << leaf)) == 0) {
          fromLeaves.addAll(g.leaves().get(leaf).rows().getOrDefault(row, Set.of()));
        }
      }
      assertEquals(out, fromLeaves, where + ", row " + row + ", mask " + Long.toBinaryString(mask) + ", " + g.changed());
      if (mask == ChangedRows.UNCHANGED) {
        unchanged++;
      } else {
        masked++;
      }
    }
    return new int[] {masked, unchanged};
  }

  private static File flush(Random random, int[] ids) {
    File f = new File(ids[0]++, new TreeMap<>());
    int n = 1 + random.nextInt(6);
    for (int i = 0; i < n; i++) {
      f.rows().computeIfAbsent("r" + random.nextInt(12), r -> new HashSet<>()).add(ids[1]++);
    }
    return f;
  }

  private static List<File> pick(Random random, List<File> live) {
    List<File> inputs = new ArrayList<>();
    for (File f : live) {
      if (random.nextInt(3) > 0) {
        inputs.add(f);
      }
    }
    if (inputs.isEmpty()) {
      inputs.add(live.get(0));
    }
    return inputs;
  }

  /** Writes {@code output} from {@code inputs}, dropping random cells, and audits it as the engine does. */
  private static ChangedRows compact(Random random, List<File> inputs, File output) {
    RowChangeAccount account = new RowChangeAccount(inputs.size(), 1_000_000);
    Set<String> rows = new TreeSet<>();
    inputs.forEach(f -> rows.addAll(f.rows().keySet()));
    for (String row : rows) {
      for (int i = 0; i < inputs.size(); i++) {
        for (int cell : inputs.get(i).rows().getOrDefault(row, Set.of())) {
          account.input(bytes(row), i, 1);
          int fate = random.nextInt(10);
          if (fate < 7) {
            output.rows().computeIfAbsent(row, r -> new HashSet<>()).add(cell);
            account.output(bytes(row), fate == 0 ? RowChangeAccount.UNKNOWN_INPUT : i, 1);
          }
        }
      }
    }
    return account.finish().orElseThrow();
  }

  private static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }
}
