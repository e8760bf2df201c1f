package dev.cairn.db.compact;

import dev.cairn.CompactionFilter;
import dev.cairn.compaction.CompactionPlan;
import dev.cairn.db.base.Engine;
import dev.cairn.db.base.TableIterators;
import dev.cairn.db.base.TableOutput;
import dev.cairn.fs.IoTag;
import dev.cairn.iter.CompactionOutputIterator;
import dev.cairn.iter.ConcatenatingIterator;
import dev.cairn.iter.InternalIterator;
import dev.cairn.iter.MergingIterator;
import dev.cairn.table.TableOptions;
import dev.cairn.version.FileMetaData;
import dev.cairn.version.VersionEdit;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * Executes one table-compaction plan: merges the input files of level n with the overlapping
 * files of level n+1 into new tables of level n+1, keeping for every user key the newest entry
 * and the newest entry each open snapshot can see, and dropping tombstones when nothing older can
 * lie below (LevelDB's DoCompactionWork). Runs without the engine mutex; its result is a version
 * edit the caller installs.
 *
 * <p>Compaction reads are tagged as compaction I/O of the output level and never fill the block
 * cache, so a compaction does not evict the hot blocks that user reads keep there.
 *
 * <p>An {@link dev.cairn.compaction.CompactionKind#L0_TO_L0} plan (DLC's bursty "resume part")
 * runs the same way with L0 as both input and output level: its inputs are the newest contiguous
 * run of L0 tables, so the merged table's sequence range is theirs and it takes their place in
 * L0's newest-first order. It is never bottommost, so nothing older below is uncovered.
 */
final class CompactionJob implements CompactionExecution {
  private final Engine engine;
  /** The style's table options (every table this database writes). */
  private final TableOptions tableOptions;
  private final CompactionPlan plan;
  private final List<FileMetaData> inputs;
  private final List<FileMetaData> targets;
  private final List<Long> outputNumbers = new ArrayList<>();
  /** See {@link CompactionExecution#smallestFilteredSequence()}. */
  private long smallestFilteredSequence = Long.MAX_VALUE;
  /** The user's filter's decisions and the operands merged, counted once the output is installed. */
  private long filterRemoved;
  private long filterChanged;
  private long mergedOperands;
  /** The scheduler's pace for compaction I/O. */
  private final CompactionPacer pacer;

  CompactionJob(Engine engine, TableOptions tableOptions, CompactionPlan plan, ShapeAdapter shape,
      CompactionPacer pacer) {
    this.engine = engine;
    this.tableOptions = tableOptions;
    this.pacer = pacer;
    this.plan = plan;
    this.inputs = shape.metas(plan.inputs());
    this.targets = shape.metas(plan.targets());
  }

  @Override
  public List<Long> outputNumbers() {
    return outputNumbers;
  }

  @Override
  public long smallestFilteredSequence() {
    return smallestFilteredSequence;
  }

  @Override
  public void afterInstall() {
    engine.counters().keepDecisions(filterRemoved, filterChanged, mergedOperands);
  }

  /** Builds the edit that replaces the inputs by the outputs. */
  @Override
  public VersionEdit run() throws IOException {
    VersionEdit edit = new VersionEdit();
    if (plan.newCompactionPointer() != null) {
      edit.setCompactPointer(plan.inputLevel(), plan.newCompactionPointer());
    }
    if (plan.isMove()) {
      for (FileMetaData f : inputs) {
        edit.deleteFile(plan.inputLevel(), f.number());
        edit.addFile(plan.outputLevel(), f);
      }
      return edit;
    }
    IoTag tag = IoTag.compaction(plan.outputLevel());
    long[] snapshots = engine.snapshots().sequencesAscending();
    long oldestSnapshot = engine.snapshots().oldest(engine.versions().lastSequence());
    try (InternalIterator merged = new MergingIterator(inputIterators(tag));
        CompactionOutputIterator kept = new CompactionOutputIterator(merged, snapshots, oldestSnapshot,
            plan.bottommost(), engine.compactionExpiry(), engine.compactionFilter(),
            new CompactionFilter.Context(plan.outputLevel(), plan.bottommost()), engine.merger())
            .withRangeTombstones(inputRangeTombstones());
        TableOutput out = new TableOutput(engine.fs(), engine.dir(),
            tableOptions.forOutput(engine.options(), plan.bottommost()), tag,
            plan.outputLimits().targetFileBytes(), this::newOutputNumber,
            TableOutput.CutPolicy.grandparents(plan, engine.options()))) {
      out.rangeTombstones(kept.keptRangeTombstones());
      long added = 0;
      for (kept.seekToFirst(); kept.isValid(); kept.next()) {
        if (engine.status().isClosing()) {
          throw new IOException("compaction abandoned: the database is closing");
        }
        out.add(kept.key(), kept.value());
        if (++added % CompactionPacer.ENTRIES_PER_PACE == 0) {
          pacer.pace();
        }
      }
      for (FileMetaData f : out.finish()) {
        edit.addFile(plan.outputLevel(), f);
      }
      engine.counters().dataBlocksWritten(plan.outputLevel(), out.rawDataBytes(), out.storedDataBytes());
      filterRemoved = kept.removedByFilter();
      filterChanged = kept.changedByFilter();
      mergedOperands = kept.mergedOperands();
      smallestFilteredSequence = kept.smallestFilteredSequence();
    }
    pacer.pace(); // the entries since the last call and the tables' tails
    for (FileMetaData f : inputs) {
      edit.deleteFile(plan.inputLevel(), f.number());
    }
    for (FileMetaData f : targets) {
      edit.deleteFile(plan.outputLevel(), f.number());
    }
    return edit;
  }

  /** The inputs' and targets' range tombstones. */
  private dev.cairn.key.RangeTombstones inputRangeTombstones() {
    List<FileMetaData> all = new ArrayList<>(inputs);
    all.addAll(targets);
    return TableIterators.rangeTombstones(engine.tableCache(), all);
  }

  private long newOutputNumber() {
    long n = engine.pendingOutputs().allocate();
    outputNumbers.add(n);
    return n;
  }

  private List<InternalIterator> inputIterators(IoTag tag) {
    List<InternalIterator> its = new ArrayList<>();
    try {
      if (plan.inputLevel() == 0) {
        // L0 files may overlap: each is its own sorted run.
        for (FileMetaData f : inputs) {
          its.add(TableIterators.open(engine.tableCache(), f, false, tag));
        }
      } else {
        its.add(concatenation(inputs, tag));
      }
      if (!targets.isEmpty()) {
        its.add(concatenation(targets, tag));
      }
      return its;
    } catch (RuntimeException e) {
      its.forEach(InternalIterator::close);
      throw e;
    }
  }

  private InternalIterator concatenation(List<FileMetaData> files, IoTag tag) {
    return new ConcatenatingIterator<>(files, FileMetaData::largest,
        f -> TableIterators.open(engine.tableCache(), f, false, tag));
  }
}
