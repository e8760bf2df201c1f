package dev.cairn.db.buffer;

import dev.cairn.cache.BlockCache;
import dev.cairn.compaction.buffer.BufferDraft;
import dev.cairn.compaction.buffer.PartCompaction;
import dev.cairn.compaction.buffer.TrimPlanner;
import dev.cairn.db.base.Engine;
import dev.cairn.db.base.TableIterators;
import dev.cairn.fs.FileNames;
import dev.cairn.fs.IoPurpose;
import dev.cairn.fs.IoTag;
import dev.cairn.fs.WritableFile;
import dev.cairn.table.cache.TableHandle;
import dev.cairn.table.TableSubset;
import dev.cairn.table.TableSummary;
import dev.cairn.version.FileMetaData;
import dev.cairn.version.Version;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import java.util.stream.IntStream;

/**
 * Part compaction, the engine's side (docs/compaction.md, "Part compaction"): rewrites the buffer
 * files {@link PartCompaction} picks as new tables of their parts' blocks ({@link TableSubset}),
 * off the engine mutex over a pinned version, moving each warm block's cache entry to its new
 * address; then, under the mutex, points the parts at the new files in one edit, for every plan
 * whose parts the run still holds. A new file whose plan no longer applies is released and
 * collected as obsolete, like an abandoned compaction output. A crash before the edit leaves only
 * such an orphan; after it, the old file is obsolete and goes at the next collection.
 */
final class PartRewriter {
  /** Files rewritten per pass at most, so a pass stays short beside the compactions. */
  static final int MAX_FILES_PER_PASS = 8;

  private final Engine engine;
  private final double maxKeptFraction;
  private final AtomicLong rewrittenFiles = new AtomicLong();
  private final AtomicLong freedBytes = new AtomicLong();

  private record Rewrite(PartCompaction.Plan<FileMetaData> plan, FileMetaData rewritten) {}

  PartRewriter(Engine engine, double maxKeptFraction) {
    this.engine = engine;
    this.maxKeptFraction = maxKeptFraction;
  }

  /**
   * One pass: plans over the current version, writes the new files, installs those that still
   * apply. Returns the files rewritten. Callers serialize passes (the buffer's trim thread).
   *
   * @param layouts a file's block layout, or null when it cannot be read now
   */
  int rewriteOnce(Function<FileMetaData, TrimPlanner.BlockLayout> layouts) throws IOException {
    if (maxKeptFraction <= 0) {
      return 0;
    }
    List<Rewrite> written = new ArrayList<>();
    List<Long> numbers = new ArrayList<>();
    Version pinned = engine.versions().refCurrent();
    try {
      List<PartCompaction.Plan<FileMetaData>> plans =
          PartCompaction.plan(pinned, pinned.numLevels(), layouts, maxKeptFraction);
      for (PartCompaction.Plan<FileMetaData> plan : plans.subList(0, Math.min(plans.size(), MAX_FILES_PER_PASS))) {
        if (!TableIterators.rangeTombstones(engine.tableCache(), List.of(plan.file())).isEmpty()) {
          // A subset of blocks would leave the file's range tombstones behind: kept whole.
          continue;
        }
        long number = engine.pendingOutputs().allocate();
        numbers.add(number);
        written.add(new Rewrite(plan, write(plan, number)));
      }
    } finally {
      pinned.unref();
      if (written.size() < numbers.size()) { // a write failed: its file and the others go
        release(numbers);
      }
    }
    if (written.isEmpty()) {
      return 0;
    }
    engine.mutex().lock();
    try {
      if (engine.status().isClosing() || engine.status().hasBackgroundError()) {
        return 0; // the new files are orphans: the next open collects them
      }
      int[] applied = {0};
      long[] freed = {0};
      // Built once the manifest is this rewrite's: against the version the edit will replace.
      if (BufferRuntime.install(engine, () -> {
        BufferDraft<FileMetaData> draft = new BufferDraft<>(engine.versions().current(), engine.versions()::newFileNumber);
        for (Rewrite r : written) {
          PartCompaction.Plan<FileMetaData> p = r.plan();
          if (PartCompaction.apply(draft, p, r.rewritten(), engine.versions().current().numLevels())) {
            applied[0]++;
            freed[0] += p.file().totalBytes() - r.rewritten().totalBytes();
          }
        }
        return applied[0] == 0 ? null : BufferRuntime.editOf(draft);
      })) {
        rewrittenFiles.addAndGet(applied[0]);
        freedBytes.addAndGet(freed[0]);
      }
      engine.pendingOutputs().release(numbers);
      engine.background().collectObsoleteFiles(false); // the old files, and new ones not applied
      return applied[0];
    } finally {
      engine.mutex().unlock();
    }
  }

  /** Writes and syncs the new table of {@code plan}'s blocks; moves warm cache entries to it. */
  private FileMetaData write(PartCompaction.Plan<FileMetaData> plan, long number) throws IOException {
    IoTag tag = new IoTag(IoPurpose.BUFFER, -1);
    BlockCache cache = engine.blockCache();
    long source = plan.file().number();
    TableSummary s;
    try (TableHandle h = TableIterators.acquire(engine.tableCache(), plan.file())) {
      WritableFile out = engine.fs().create(FileNames.tablePath(engine.dir(), number), tag);
      try {
        s = TableSubset.write(h.reader(), positions(plan.blocks()), out, tag, engine.options().compression(),
            (from, to, contents) -> {
              // A warm block keeps serving from the cache at its new address: the point of keeping it.
              if (cache.isWarm(source, from)) {
                cache.insertWritten(number, to, contents);
              }
            });
        out.sync();
      } finally {
        out.close();
      }
    }
    engine.fs().syncDirectory(engine.dir());
    return new FileMetaData(number, s.footerOffset(), s.fileSize(), s.fileSize(), s.smallest(), s.largest(),
        s.entries(), s.smallestSequence(), s.largestSequence());
  }

  private static int[] positions(List<PartCompaction.BlockRange> ranges) {
    return ranges.stream().flatMapToInt(r -> IntStream.range(r.first(), r.end())).toArray();
  }

  private void release(List<Long> numbers) {
    engine.mutex().lock();
    try {
      engine.pendingOutputs().release(numbers);
      engine.background().collectObsoleteFiles(false);
    } finally {
      engine.mutex().unlock();
    }
  }

  long rewrittenFiles() {
    return rewrittenFiles.get();
  }

  long freedBytes() {
    return freedBytes.get();
  }
}
