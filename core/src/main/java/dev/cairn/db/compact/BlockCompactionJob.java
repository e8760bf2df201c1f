package dev.cairn.db.compact;

import dev.cairn.CompactionFilter;
import dev.cairn.compaction.CompactionPlan;
import dev.cairn.compaction.block.BlockCompactionConfig;
import dev.cairn.compaction.block.LevelThresholds;
import dev.cairn.compaction.block.SelectiveCompactionRule;
import dev.cairn.compaction.block.SelectivePlan;
import dev.cairn.compaction.block.TargetChoice;
import dev.cairn.compaction.block.TargetStats;
import dev.cairn.config.BlockCompactionExecution;
import dev.cairn.config.CompactionSettings;
import dev.cairn.db.base.Engine;
import dev.cairn.db.base.TableIterators;
import dev.cairn.db.base.TableOutput;
import dev.cairn.fs.FileNames;
import dev.cairn.fs.IoTag;
import dev.cairn.fs.ReadableFile;
import dev.cairn.fs.WritableFile;
import dev.cairn.iter.CompactionOutputIterator;
import dev.cairn.iter.InternalIterator;
import dev.cairn.iter.ListIterator;
import dev.cairn.iter.MergingIterator;
import dev.cairn.key.InternalKey;
import dev.cairn.key.RangeTombstone;
import dev.cairn.key.RangeTombstones;
import dev.cairn.table.TableAppender;
import dev.cairn.table.cache.TableHandle;
import dev.cairn.table.TableOptions;
import dev.cairn.table.TableProperties;
import dev.cairn.table.TableSummary;
import dev.cairn.version.FileMetaData;
import dev.cairn.version.VersionEdit;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.UnaryOperator;

/**
 * Executes a leveled plan with BlockDB's block compaction ({@link BlockStyle}, docs/compaction.md
 * "Block compaction"):
 *
 * <ol>
 *   <li>reads the inputs' entries (the incoming keys) and splits them among the targets by user
 *       key: target {@code j} takes the keys up to its largest user key and above target {@code
 *       j-1}'s; the last takes the rest. The slices are disjoint and every user key's versions
 *       stay together, so each target's new key range still overlaps no neighbour;
 *   <li>asks {@link SelectiveCompactionRule} for each target: rewrite it (table compaction of
 *       its slice and the whole table into new tables) or append to it ({@link TableAppender});
 *   <li>runs one sub-task per target on a bounded pool (parallel merging); any failure fails the
 *       whole compaction, so no edit is produced (torn appends lie beyond the manifest's valid
 *       length and are cut off by the next append);
 *   <li>returns ONE edit: inputs deleted, rewritten targets replaced by their outputs, appended
 *       targets' footers moved ({@code FOOTER_UPDATE}).
 * </ol>
 *
 * The incoming entries are held in memory: they are the input level's share of one plan,
 * bounded by the picker's expanded-compaction limit. Every read and write is paced by the
 * scheduler's {@link CompactionPacer}: while reading the inputs and rewriting a target, every
 * {@link CompactionPacer#ENTRIES_PER_PACE} entries; an append, once it is written.
 */
final class BlockCompactionJob implements CompactionExecution {
  private final Engine engine;
  /** The style's table options (every table this database writes). */
  private final TableOptions tableOptions;
  private final CompactionPlan plan;
  private final List<FileMetaData> inputs;
  private final List<FileMetaData> targets;
  /** The deepest level holding a file in the version the plan was made from (-1: none). */
  private final int deepestLevelWithFiles;
  private final BlockCompactionConfig config;
  private final BlockCompactionExecution execution;
  private final BlockCompactionCounters counters;
  private final IoTag tag;
  private final CompactionPacer pacer;
  private final List<Long> outputNumbers = Collections.synchronizedList(new ArrayList<>());
  private final List<FileMetaData> appendedBefore = Collections.synchronizedList(new ArrayList<>());

  BlockCompactionJob(Engine engine, CompactionSettings.Block settings, TableOptions tableOptions,
      CompactionPlan plan, ShapeAdapter shape,
      BlockCompactionCounters counters, CompactionPacer pacer) {
    this.engine = engine;
    this.tableOptions = tableOptions;
    this.pacer = pacer;
    this.plan = plan;
    this.inputs = shape.metas(plan.inputs());
    this.targets = shape.metas(plan.targets());
    this.deepestLevelWithFiles = shape.shape().deepestLevelWithFiles();
    this.config = settings.policy();
    this.execution = settings.io();
    this.counters = counters;
    this.tag = IoTag.compaction(plan.outputLevel());
  }

  /** The merges that asked the user's filter or had operands to merge (sub-tasks add to it in parallel). */
  private final java.util.Queue<CompactionOutputIterator> filtered = new java.util.concurrent.ConcurrentLinkedQueue<>();

  @Override
  public long smallestFilteredSequence() {
    return filtered.stream().mapToLong(CompactionOutputIterator::smallestFilteredSequence).min().orElse(Long.MAX_VALUE);
  }

  @Override
  public List<Long> outputNumbers() {
    return outputNumbers;
  }

  /**
   * Drops the readers of the superseded footers of every table appended to: they go once no
   * version holds them, and the tables' blocks stay cached. Counts the user filter's decisions.
   */
  @Override
  public void afterInstall() {
    appendedBefore.forEach(f -> engine.tableCache().evictFooter(f.number(), f.footerOffset()));
    for (CompactionOutputIterator kept : filtered) {
      engine.counters().keepDecisions(kept.removedByFilter(), kept.changedByFilter(), kept.mergedOperands());
    }
  }

  @Override
  public VersionEdit run() throws IOException {
    // Snapshots as of the start, like CompactionJob: a snapshot taken later sees only sequences
    // above everything this compaction reads, so it needs nothing the drop rules remove.
    java.util.function.Function<RangeTombstones, java.util.function.Function<InternalIterator, CompactionOutputIterator>>
        dropRules = dropRules();
    List<List<Map.Entry<byte[], byte[]>>> slices = splitIncoming(readIncoming());
    List<RangeTombstones> pieces = splitTombstones(TableIterators.rangeTombstones(engine.tableCache(), inputs));
    boolean lastLevel = config.intoLastLevel(plan.outputLevel(), plan.bottommost(), deepestLevelWithFiles);
    LevelThresholds thresholds = config.thresholds(lastLevel);
    SelectiveCompactionRule rule = new SelectiveCompactionRule(config);
    List<TargetStats> measured = new ArrayList<>();
    List<TargetChoice> choices = new ArrayList<>();
    for (int j = 0; j < targets.size(); j++) {
      measured.add(measure(targets.get(j), slices.get(j), pieces.get(j)));
      choices.add(rule.choose(plan.inputLevel(), plan.outputLevel(), lastLevel,
          plan.outputLimits().targetFileBytes(), measured.get(j)));
    }
    SelectivePlan selective = new SelectivePlan(plan, choices);
    // The bottommost codec follows the keys (nothing older below them), whichever thresholds the
    // policy's last-level rule gave the merge.
    TableOptions tableOptions = this.tableOptions.withFilterReserve(thresholds.filterReserve())
        .forOutput(engine.options(), plan.bottommost());

    List<SubTask> tasks = new ArrayList<>();
    for (int j = 0; j < targets.size(); j++) {
      if (slices.get(j).isEmpty() && pieces.get(j).isEmpty()) {
        continue; // nothing incoming falls into this target (it only spans the inputs' range)
      }
      counters.chose(plan.outputLevel(), lastLevel, selective.choices().get(j), measured.get(j));
      tasks.add(new SubTask(targets.get(j), slices.get(j), pieces.get(j), selective.choices().get(j).mode(),
          tableOptions, dropRules));
    }
    VersionEdit edit = new VersionEdit();
    if (plan.newCompactionPointer() != null) {
      edit.setCompactPointer(plan.inputLevel(), plan.newCompactionPointer());
    }
    boolean newTables = false;
    for (SubTask.Outcome o : runAll(tasks)) {
      o.applyTo(edit, plan.outputLevel());
      newTables |= !o.outputs().isEmpty();
    }
    if (newTables) {
      engine.fs().syncDirectory(engine.dir());
    }
    for (FileMetaData f : inputs) {
      edit.deleteFile(plan.inputLevel(), f.number());
    }
    pacer.pace(); // what the last sub-tasks moved
    return edit;
  }

  /** The inputs' entries merged, every version kept (the drop rules run per target, later). */
  private List<Map.Entry<byte[], byte[]>> readIncoming() {
    List<InternalIterator> its = new ArrayList<>();
    try {
      for (FileMetaData f : inputs) {
        its.add(TableIterators.open(engine.tableCache(), f, false, tag));
      }
    } catch (RuntimeException e) {
      // Each opened iterator pins its table in the cache: unpinned here, or it stays open for good.
      its.forEach(InternalIterator::close);
      throw e;
    }
    List<Map.Entry<byte[], byte[]>> out = new ArrayList<>();
    try (InternalIterator merged = new MergingIterator(its)) {
      for (merged.seekToFirst(); merged.isValid(); merged.next()) {
        out.add(Map.entry(merged.key(), merged.value()));
        if (out.size() % CompactionPacer.ENTRIES_PER_PACE == 0) {
          pacer.pace();
        }
      }
    }
    return out;
  }

  private List<List<Map.Entry<byte[], byte[]>>> splitIncoming(List<Map.Entry<byte[], byte[]>> all) {
    List<List<Map.Entry<byte[], byte[]>>> slices = new ArrayList<>();
    int from = 0;
    for (int j = 0; j < targets.size(); j++) {
      int to = all.size();
      if (j < targets.size() - 1) {
        byte[] bound = targets.get(j).largestUserKey();
        to = from;
        while (to < all.size() && InternalKey.compareUserKeys(all.get(to).getKey(), InternalKey.encode(
            bound, 0, dev.cairn.key.ValueType.DELETION)) <= 0) {
          to++;
        }
      }
      slices.add(all.subList(from, to));
      from = to;
    }
    return slices;
  }

  /**
   * The inputs' range tombstones cut as the entries are ({@link #splitIncoming}): target {@code
   * j}'s part ends at the successor of its largest user key, where target {@code j+1}'s begins,
   * so each target's new bounds still overlap no neighbour.
   */
  private List<RangeTombstones> splitTombstones(RangeTombstones incoming) {
    List<RangeTombstones> out = new ArrayList<>();
    byte[] lo = null;
    for (int j = 0; j < targets.size(); j++) {
      byte[] hi = j < targets.size() - 1 ? RangeTombstone.successor(targets.get(j).largestUserKey()) : null;
      List<RangeTombstone> piece = new ArrayList<>();
      for (RangeTombstone t : incoming.all()) {
        RangeTombstone clipped = t.clip(lo, hi);
        if (clipped != null) {
          piece.add(clipped);
        }
      }
      out.add(RangeTombstones.of(piece));
      lo = hi;
    }
    return out;
  }

  private TargetStats measure(FileMetaData target, List<Map.Entry<byte[], byte[]>> slice, RangeTombstones pieces) {
    List<byte[]> userKeys = new ArrayList<>(slice.size());
    long incomingBytes = 0;
    for (Map.Entry<byte[], byte[]> e : slice) {
      userKeys.add(InternalKey.userKey(e.getKey()));
      incomingBytes += e.getKey().length + e.getValue().length;
    }
    try (TableHandle h = TableIterators.acquire(engine.tableCache(), target)) {
      long blocks = TableAppender.dataBlocks(h.reader());
      long dirty = Math.min(blocks, TableAppender.countDirtyBlocks(h.reader(), userKeys, pieces));
      TableProperties p = h.reader().properties();
      long dirtyBytes = blocks == 0 ? 0 : p.dataBytes() / blocks * dirty;
      long metadata = p.indexBytes() + p.filterBytes();
      // The file's sizes are as stored (compressed, where its blocks are); the incoming entries
      // are raw, so they are counted as the target's own blocks store them.
      return new TargetStats(target.number(), target.totalBytes(), target.validBytes(), blocks, dirty,
          dirtyBytes + p.storedBytesFor(incomingBytes) + metadata);
    }
  }

  private List<SubTask.Outcome> runAll(List<SubTask> tasks) throws IOException {
    int threads = Math.min(execution.parallelism(), tasks.size());
    if (threads <= 1) {
      List<SubTask.Outcome> out = new ArrayList<>();
      for (SubTask t : tasks) {
        out.add(t.call());
      }
      return out;
    }
    ExecutorService pool = Executors.newFixedThreadPool(threads, r -> {
      Thread t = new Thread(r, "cairn-block-merge");
      t.setDaemon(true);
      return t;
    });
    try {
      List<Future<SubTask.Outcome>> futures = new ArrayList<>();
      for (SubTask t : tasks) {
        futures.add(pool.submit(t));
      }
      List<SubTask.Outcome> out = new ArrayList<>();
      Throwable failure = null;
      for (Future<SubTask.Outcome> f : futures) {
        try {
          out.add(f.get());
        } catch (ExecutionException e) {
          failure = failure == null ? e.getCause() : failure;
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          failure = failure == null ? e : failure;
        }
      }
      if (failure instanceof IOException io) {
        throw io;
      }
      if (failure instanceof RuntimeException re) {
        throw re;
      }
      if (failure instanceof Error err) {
        throw err;
      }
      if (failure != null) {
        throw new IOException("block compaction sub-task failed", failure);
      }
      return out;
    } finally {
      pool.shutdownNow();
    }
  }

  /**
   * The drop rules and the user's filter, one iterator per merge the sub-tasks run; those that
   * had a filter to ask are kept to count its decisions once all are done.
   */
  private java.util.function.Function<RangeTombstones, java.util.function.Function<InternalIterator, CompactionOutputIterator>>
      dropRules() {
    long[] snapshots = engine.snapshots().sequencesAscending();
    long oldest = engine.snapshots().oldest(engine.versions().lastSequence());
    CompactionFilter filter = engine.compactionFilter();
    java.util.function.Predicate<byte[]> expired = engine.compactionExpiry();
    CompactionFilter.Context context = new CompactionFilter.Context(plan.outputLevel(), plan.bottommost());
    return tombstones -> merged -> {
      CompactionOutputIterator kept =
          new CompactionOutputIterator(merged, snapshots, oldest, plan.bottommost(), expired, filter, context,
              engine.merger()).withRangeTombstones(tombstones);
      if (filter != null || expired != null || engine.options().mergeOperator() != null) {
        filtered.add(kept);
      }
      return kept;
    };
  }

  /** One target's share of the compaction (parallel merging). */
  private final class SubTask implements java.util.concurrent.Callable<SubTask.Outcome> {
    /** A finished sub-task: outputs replacing the target, or its new metadata (null: empty). */
    record Outcome(FileMetaData target, List<FileMetaData> outputs, FileMetaData appended, boolean rewritten) {
      void applyTo(VersionEdit edit, int level) {
        if (rewritten || appended == null) {
          edit.deleteFile(level, target.number());
          outputs.forEach(f -> edit.addFile(level, f));
        } else {
          edit.updateFooter(level, appended);
        }
      }
    }

    private final FileMetaData target;
    private final List<Map.Entry<byte[], byte[]>> slice;
    /** The incoming range tombstones' part over this target. */
    private final RangeTombstones pieces;
    private final TargetChoice.Mode mode;
    private final TableOptions tableOptions;
    private final java.util.function.Function<RangeTombstones, java.util.function.Function<InternalIterator,
        CompactionOutputIterator>> dropRules;

    SubTask(FileMetaData target, List<Map.Entry<byte[], byte[]>> slice, RangeTombstones pieces,
        TargetChoice.Mode mode, TableOptions tableOptions, java.util.function.Function<RangeTombstones,
        java.util.function.Function<InternalIterator, CompactionOutputIterator>> dropRules) {
      this.target = target;
      this.slice = slice;
      this.pieces = pieces;
      this.mode = mode;
      this.tableOptions = tableOptions;
      this.dropRules = dropRules;
    }

    @Override
    public Outcome call() throws IOException {
      if (engine.status().isClosing()) {
        throw new IOException("compaction abandoned: the database is closing");
      }
      if (mode == TargetChoice.Mode.BLOCK) {
        Path path = FileNames.tablePath(engine.dir(), target.number());
        // A table file with a second name (a checkpoint's) is never appended: it is rewritten.
        if (engine.tableLinks().beginAppend(target.number(), path)) {
          try {
            return append(path);
          } finally {
            engine.tableLinks().endAppend(target.number());
          }
        }
      }
      return rewrite();
    }

    private Outcome rewrite() throws IOException {
      RangeTombstones tombstones = RangeTombstones.union(List.of(pieces,
          TableIterators.rangeTombstones(engine.tableCache(), List.of(target))));
      List<InternalIterator> sources = new ArrayList<>();
      sources.add(new ListIterator(slice));
      sources.add(TableIterators.open(engine.tableCache(), target, false, tag));
      try (CompactionOutputIterator kept = dropRules.apply(tombstones).apply(new MergingIterator(sources));
          TableOutput out = new TableOutput(engine.fs(), engine.dir(), tableOptions, tag,
              plan.outputLimits().targetFileBytes(), this::newOutputNumber,
              TableOutput.CutPolicy.grandparents(plan, engine.options()))) {
        out.rangeTombstones(kept.keptRangeTombstones());
        long added = 0;
        for (kept.seekToFirst(); kept.isValid(); kept.next()) {
          out.add(kept.key(), kept.value());
          if (++added % CompactionPacer.ENTRIES_PER_PACE == 0) {
            pacer.pace();
          }
        }
        counters.rewrittenTables().increment();
        List<FileMetaData> files = out.finish();
        engine.counters().dataBlocksWritten(plan.outputLevel(), out.rawDataBytes(), out.storedDataBytes());
        return new Outcome(target, files, null, true);
      }
    }

    private long newOutputNumber() {
      long n = engine.pendingOutputs().allocate();
      outputNumbers.add(n);
      return n;
    }

    private Outcome append(Path path) throws IOException {
      try (TableHandle h = TableIterators.acquire(engine.tableCache(), target);
          ReadableFile in = engine.fs().openReadable(path);
          WritableFile out = engine.fs().openForAppend(path, target.totalBytes(), tag)) {
        RangeTombstones tombstones = RangeTombstones.union(List.of(pieces, h.reader().rangeTombstones()));
        java.util.function.Function<InternalIterator, CompactionOutputIterator> rules = dropRules.apply(tombstones);
        TableAppender.Result r = new TableAppender(h.reader(), in, out, tableOptions,
            execution.maxFilterFalsePositiveRate(), rules::apply, tag).append(slice, pieces);
        out.sync();
        pacer.pace(); // the appender reads the dirty blocks and writes the tail in one call
        counters.appendedTables().increment();
        counters.dirtyBlocks().add(r.dirtyBlocks());
        counters.appendedBytes().add(r.appendedBytes());
        engine.counters().dataBlocksWritten(plan.outputLevel(), r.rawDataBytes(), r.storedDataBytes());
        if (r.filterRebuilt()) {
          counters.filterRebuilds().increment();
        }
        appendedBefore.add(target);
        TableSummary s = r.summary();
        if (s == null) {
          return new Outcome(target, List.of(), null, false);
        }
        return new Outcome(target, List.of(), new FileMetaData(target.number(), s.footerOffset(),
            r.validBytes(), s.fileSize(), s.smallest(), s.largest(), s.entries(),
            s.smallestSequence(), s.largestSequence()), false);
      }
    }
  }
}
