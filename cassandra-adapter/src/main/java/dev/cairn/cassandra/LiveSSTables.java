package dev.cairn.cassandra;

import dev.cairn.compaction.CompactionKind;
import dev.cairn.compaction.CompactionPlan;
import dev.cairn.compaction.OutputLimits;
import dev.cairn.model.FileDescriptor;
import dev.cairn.model.LsmShape;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.cassandra.db.DecoratedKey;
import org.apache.cassandra.dht.Murmur3Partitioner;
import org.apache.cassandra.io.sstable.Descriptor;
import org.apache.cassandra.io.sstable.SSTableIdFactory;
import org.apache.cassandra.io.sstable.format.SSTableReader;

/**
 * What one strategy instance remembers about its SSTables between decisions, and how it reads
 * them into an {@link SSTableModel}:
 *
 * <ul>
 *   <li>a model id per SSTable, stable while it lives in this instance;
 *   <li>the plans handed to Cassandra, each running while any of its SSTables is compacting;
 *   <li>the outputs of DLC's bursty part runs, which a part run never merges again. A part run's
 *       output is known when Cassandra reports the replacement of its inputs; the inputs are
 *       matched by descriptor, since Cassandra has usually removed them from the strategy (on
 *       their obsoletion) before it reports the replacement;
 *   <li>each level's compaction pointer (LevelDB's round-robin), kept in memory: after a restart
 *       the sweep starts again from the first SSTable.
 * </ul>
 *
 * Not thread-safe: the strategy calls it under its own lock.
 */
final class LiveSSTables {
  private final int levels;
  private final OutputLimits limits;
  private final Map<Descriptor, Long> ids = new HashMap<>();
  private long nextId;
  private final List<CompactionPlan> handedOut = new ArrayList<>();
  private final Set<Long> burstyOutputs = new HashSet<>();
  private final List<Set<Descriptor>> pendingPartRuns = new ArrayList<>();
  private final byte[][] pointers;

  LiveSSTables(int levels, OutputLimits limits) {
    this.levels = levels;
    this.limits = limits;
    this.pointers = new byte[levels][];
  }

  /** The live SSTables, of which {@code compacting} are held by some operation, as a model. */
  SSTableModel read(Collection<SSTableReader> live, Set<SSTableReader> compacting) {
    List<SSTableReader> oldestFirst = new ArrayList<>(live);
    oldestFirst.sort((a, b) -> SSTableIdFactory.COMPARATOR.compare(a.descriptor.id, b.descriptor.id));
    Map<Long, SSTableReader> readers = new HashMap<>();
    List<SSTableFacts> facts = new ArrayList<>();
    Set<Long> busy = new HashSet<>();
    long age = 0;
    for (SSTableReader r : oldestFirst) {
      long id = idOf(r);
      readers.put(id, r);
      // The age is the rank in generation order, not the id: a compaction's output is seen
      // after flushes that began later, but its generation was taken when it started.
      facts.add(new SSTableFacts(id, r.getSSTableLevel(), key(r.getFirst()), key(r.getLast()),
          r.onDiskLength(), r.estimatedKeys(), age++));
      if (compacting.contains(r)) {
        busy.add(id);
      }
    }
    LsmShape shape = ShapeTranslator.translate(facts, levels, Arrays.asList(pointers));
    handedOut.removeIf(p -> p.fileIds().stream().noneMatch(busy::contains));
    // A part run whose inputs are no longer compacting has ended; if it committed, its output
    // was marked in replaced() before the inputs were released.
    pendingPartRuns.removeIf(run -> compacting.stream().noneMatch(r -> run.contains(r.descriptor)));
    burstyOutputs.retainAll(readers.keySet());
    List<CompactionPlan> running = new ArrayList<>(handedOut);
    Set<Long> ours = new HashSet<>();
    handedOut.forEach(p -> ours.addAll(p.fileIds()));
    for (int level = 0; level < levels; level++) {
      for (FileDescriptor f : shape.files(level)) {
        if (busy.contains(f.id()) && !ours.contains(f.id())) {
          running.add(heldElsewhere(level, f));
        }
      }
    }
    return new SSTableModel(shape, readers, running);
  }

  /** {@code plan} was handed to Cassandra over {@code sstables}. */
  void handedOut(CompactionPlan plan, Collection<SSTableReader> sstables) {
    handedOut.add(plan);
    if (plan.newCompactionPointer() != null) {
      pointers[plan.inputLevel()] = plan.newCompactionPointer();
    }
    if (plan.kind() == CompactionKind.L0_TO_L0) {
      Set<Descriptor> inputs = new HashSet<>();
      sstables.forEach(r -> inputs.add(r.descriptor));
      pendingPartRuns.add(inputs);
    }
  }

  /** Cassandra replaced {@code removed} by {@code added} (a compaction committed). */
  void replaced(Collection<SSTableReader> removed, Collection<SSTableReader> added) {
    Set<Descriptor> gone = new HashSet<>();
    removed.forEach(r -> gone.add(r.descriptor));
    if (pendingPartRuns.remove(gone)) {
      added.forEach(r -> burstyOutputs.add(idOf(r)));
    }
    forget(removed);
  }

  /** The SSTables left this instance. */
  void forget(Collection<SSTableReader> removed) {
    for (SSTableReader r : removed) {
      Long id = ids.remove(r.descriptor);
      if (id != null) {
        burstyOutputs.remove(id);
      }
    }
  }

  /** L0 SSTables written by part runs, as the last {@link #read} saw them. */
  Set<Long> burstyOutputs() {
    return burstyOutputs;
  }

  /**
   * An SSTable another operation holds (a user-defined compaction, anti-compaction, cleanup) as a
   * running plan over it, so that no plan reads it or writes over its range in the next level.
   */
  private CompactionPlan heldElsewhere(int level, FileDescriptor f) {
    return new CompactionPlan(CompactionKind.TABLE_MERGE, level, Math.min(level + 1, levels - 1),
        List.of(f), List.of(), List.of(), null, false, limits, "held by another operation");
  }

  private long idOf(SSTableReader r) {
    Long id = ids.get(r.descriptor);
    if (id == null) {
      id = nextId++;
      ids.put(r.descriptor, id);
    }
    return id;
  }

  private static byte[] key(DecoratedKey key) {
    return TokenKeys.encode(((Murmur3Partitioner.LongToken) key.getToken()).token, key.getKey());
  }
}
