package dev.cairn.hbase;

import dev.cairn.hbase.buffer.ChangedRows;
import dev.cairn.hbase.buffer.GenerationTrim;
import dev.cairn.hbase.buffer.RowFilter;
import java.io.IOException;
import java.lang.reflect.Field;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import javax.management.ObjectName;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hbase.CellComparator;
import org.apache.hadoop.hbase.io.hfile.BlockCache;
import org.apache.hadoop.hbase.regionserver.DefaultStoreEngine;
import org.apache.hadoop.hbase.regionserver.DefaultStoreFlusher;
import org.apache.hadoop.hbase.regionserver.HRegion;
import org.apache.hadoop.hbase.regionserver.HStore;
import org.apache.hadoop.hbase.regionserver.HStoreFile;
import org.apache.hadoop.hbase.regionserver.StoreConfigInformation;
import org.apache.hadoop.hbase.regionserver.StoreEngine;
import org.apache.hadoop.hbase.regionserver.compactions.CompactionContext;
import org.apache.hadoop.hbase.regionserver.compactions.DefaultCompactor;
import org.apache.hadoop.hbase.regionserver.compactions.ExploringCompactionPolicy;
import org.apache.hadoop.hbase.regionserver.compactions.RatioBasedCompactionPolicy;
import org.apache.hadoop.hbase.regionserver.throttle.ThroughputController;
import org.apache.hadoop.hbase.security.User;
import org.apache.hadoop.hbase.util.ReflectionUtils;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A store engine whose compactions leave their inputs answering reads while those are hot: LSbM's
 * compaction buffer on HBase's store files (docs/adapters/hbase.md, "The compaction buffer").
 * Enabled per table or family with {@code hbase.hstore.engine.class} set to this class. HBase's
 * default engine in everything else: its flusher, its compaction policy (or the one named by
 * {@code hbase.hstore.defaultengine.compactionpolicy.class}, Cairn's included), and its compactor,
 * which writes the same files with an audit beside it ({@link RowAccountingCompactor}).
 *
 * <p>The files are kept by a {@link BufferedStoreFileManager}; a server-wide {@link
 * BufferTrimmer} judges the generations every trim interval ({@link GenerationTrim}). The buffer
 * lives in memory only: after a reopen (restart, move, split, merge) the store holds its live
 * files alone, and HBase archives the leaves at the next open from the outputs' compaction
 * records, as it does every compacted file.
 *
 * <p>A bad {@code cairn.buffer.*} setting is logged by name and the store runs without a buffer:
 * a region always opens.
 */
public final class CairnBufferStoreEngine extends StoreEngine<DefaultStoreFlusher, RatioBasedCompactionPolicy,
    DefaultCompactor, BufferedStoreFileManager> {
  private static final Logger LOG = LoggerFactory.getLogger(CairnBufferStoreEngine.class);

  private final BufferStats stats = new BufferStats();
  /**
   * Each finished compaction's audit by output file name, until its commit takes it. A compaction
   * whose commit fails leaves its entry behind: a few bytes, for the store's life.
   */
  private final Map<String, Audit> audits = new ConcurrentHashMap<>();
  private BufferOptions options = BufferOptions.defaults();
  private HStore store;
  private BufferTrimmer trimmer;
  private ObjectName beanName;

  @Override
  protected void createComponents(Configuration conf, HStore store, CellComparator comparator) throws IOException {
    this.store = store;
    this.options = readOptions(conf, store);
    this.compactor = new RowAccountingCompactor(conf, store, this);
    this.compactionPolicy = instantiate(conf, DefaultStoreEngine.DEFAULT_COMPACTION_POLICY_CLASS_KEY,
        ExploringCompactionPolicy.class.getName(), new Class<?>[] {Configuration.class, StoreConfigInformation.class},
        new Object[] {conf, store}, "compaction policy");
    setStoreFlusher(instantiate(conf, DefaultStoreEngine.DEFAULT_STORE_FLUSHER_CLASS_KEY,
        DefaultStoreFlusher.class.getName(), new Class<?>[] {Configuration.class, HStore.class},
        new Object[] {conf, store}, "store flusher"));
    this.storeFileManager = new BufferedStoreFileManager(comparator,
        conf.getInt(HStore.BLOCKING_STOREFILES_KEY, HStore.DEFAULT_BLOCKING_STOREFILE_COUNT),
        compactionPolicy.getConf().getMinFilesToCompact(), this, stats);
    if (options.enabled()) {
      BlockCache cache = store.getCacheConfig().getBlockCache().orElse(null);
      if (cache != null) {
        trimmer = BufferTrimmer.join(cache, options.trimIntervalMillis(), this);
        beanName = StoreBeans.register("CompactionBuffer", store, this, new Metrics(), CairnBufferMetricsMBean.class);
      }
    }
  }

  /**
   * Sets the inherited {@code storeFlusher}. Its declared type, StoreFlusher, is package-private in
   * HBase 2.6, so code outside HBase's package cannot name the field (HBase's own engines live in
   * that package); reflection reaches it without putting a class of ours there.
   */
  private void setStoreFlusher(DefaultStoreFlusher flusher) throws IOException {
    try {
      Field field = StoreEngine.class.getDeclaredField("storeFlusher");
      field.setAccessible(true);
      field.set(this, flusher);
    } catch (ReflectiveOperationException | RuntimeException e) {
      throw new IOException("cannot set the store flusher of " + getClass().getName() + " on this HBase", e);
    }
  }

  private static BufferOptions readOptions(Configuration conf, HStore store) {
    try {
      return BufferOptions.read(conf::get, OptionValues.keysOf(conf));
    } catch (IllegalArgumentException e) {
      LOG.error("cairn: bad buffer setting for {}: {}; the store runs without a buffer", store, e.getMessage());
      return BufferOptions.defaults().disabled();
    }
  }

  @SuppressWarnings("unchecked")
  private static <T> T instantiate(Configuration conf, String key, String fallback, Class<?>[] types, Object[] args,
      String what) throws IOException {
    String className = conf.get(key, fallback);
    try {
      return (T) ReflectionUtils.instantiateWithCustomCtor(className, types, args);
    } catch (RuntimeException e) {
      throw new IOException("Unable to load configured " + what + " '" + className + "'", e);
    }
  }

  @Override
  public boolean needsCompaction(List<HStoreFile> filesCompacting) {
    return compactionPolicy.needsCompaction(storeFileManager.getStoreFiles(), filesCompacting);
  }

  @Override
  public CompactionContext createCompaction() {
    return new Context();
  }

  /** HBase's default compaction context, over the live files. */
  private final class Context extends CompactionContext {
    @Override
    public boolean select(List<HStoreFile> filesCompacting, boolean isUserCompaction, boolean mayUseOffPeak,
        boolean forceMajor) throws IOException {
      request = compactionPolicy.selectCompaction(storeFileManager.getStoreFiles(), filesCompacting,
          isUserCompaction, mayUseOffPeak, forceMajor);
      return request != null;
    }

    @Override
    public List<Path> compact(ThroughputController throughputController, User user) throws IOException {
      return compactor.compact(request, throughputController, user);
    }

    @Override
    public List<HStoreFile> preSelect(List<HStoreFile> filesCompacting) {
      return compactionPolicy.preSelectCompactionForCoprocessor(storeFileManager.getStoreFiles(), filesCompacting);
    }
  }

  // ---- the buffer

  BufferOptions options() {
    return options;
  }

  /** Whether compactions are audited and buffered. */
  boolean buffering() {
    return options.enabled();
  }

  /**
   * A compaction's changed rows, their drop masks naming its inputs in the order of {@code
   * inputNames}, and its inputs' row filters in that order; or, with {@code changed} null, why the
   * audit gave none.
   */
  record Audit(ChangedRows changed, List<String> inputNames, List<RowFilter> rowFilters, String failure) {}

  /** A compaction finished writing {@code outputs}; its audit waits for the commit. */
  void audited(List<Path> outputs, CompactionAudit audit) {
    if (outputs.size() != 1) {
      return; // the commit sees the count and does not buffer
    }
    audits.put(outputs.get(0).getName(), new Audit(audit.result().orElse(null), audit.inputNames(),
        audit.rowFilters(), "audit: " + audit.failure()));
  }

  /**
   * The audit of the compaction that wrote {@code outputName}; one saying why there is none when
   * the compaction was not audited (replayed from the WAL, or read from a replica).
   */
  Audit takeAudit(String outputName) {
    Audit audit = audits.remove(outputName);
    return audit != null ? audit : new Audit(null, List.of(), List.of(), "no audit (a replayed or refreshed compaction)");
  }

  boolean open() {
    HRegion region = store.getHRegion();
    return !region.isClosed() && !region.isClosing();
  }

  boolean holdsGenerations() {
    return !storeFileManager.generations().isEmpty();
  }

  /** The heap this store's buffer takes in changed rows and row filters. */
  long bufferHeapBytes() {
    return storeFileManager.generations().stream().mapToLong(BufferGeneration::heapBytes).sum();
  }

  /** The heap the buffers of this store's region server take (this store's alone without a trim). */
  long serverBufferHeapBytes() {
    return trimmer == null ? bufferHeapBytes() : trimmer.heapBytes();
  }

  /** The store closed: its bean goes. */
  void closed() {
    StoreBeans.unregister(beanName, this);
    beanName = null;
  }

  /**
   * One trim pass: judges every generation against the block cache's picture, retires what the
   * trim plans, then lets HBase archive whatever is compacted away and unread, as its discharger
   * would (within its 2-minute interval) so the buffer's space returns promptly.
   */
  void trimPass(Map<String, Long> cachedBytesByFile) {
    BufferedStoreFileManager files = storeFileManager;
    List<GenerationTrim.Generation> views = files.trimView(cachedBytesByFile, System.nanoTime());
    long cacheBytes = store.getCacheConfig().getBlockCache().map(BlockCache::getMaxSize).orElse(0L);
    List<GenerationTrim.Retirement> plan = GenerationTrim.plan(views, files.liveBytes(), cacheBytes,
        options.trimConfig());
    int retired = retire(plan, views);
    recordPass(cachedBytesByFile);
    if (retired > 0) {
      try {
        store.closeAndArchiveCompactedFiles();
      } catch (IOException e) {
        LOG.warn("cairn: could not archive retired buffer files of {}; HBase's discharger will", store, e);
      }
    }
  }

  /**
   * Retires what {@code plan} names, each generation its reads still use after a warm hand-over
   * ({@link OutputWarmer}) with its leaves' cached bytes from {@code views} as the budget.
   */
  int retire(List<GenerationTrim.Retirement> plan, List<GenerationTrim.Generation> views) {
    if (options.warmHandOver()) {
      for (GenerationTrim.Retirement r : plan) {
        if (r.reason() == GenerationTrim.Reason.COOLED || r.reason() == GenerationTrim.Reason.OUTPUT_WARM) {
          continue; // no reads to move, or the output already holds them
        }
        BufferGeneration g = storeFileManager.generation(r.id());
        long budget = views.stream().filter(v -> v.id() == r.id()).mapToLong(GenerationTrim.Generation::leafCachedBytes)
            .findFirst().orElse(0L);
        if (g != null) {
          try {
            stats.warmed(OutputWarmer.warm(g.output, g.recentReads.byFrequency(), budget));
          } catch (IOException | RuntimeException e) {
            LOG.debug("cairn: warm hand-over of {} failed; its reads move to a cold output", g.output, e);
          }
        }
      }
    }
    return storeFileManager.retire(plan);
  }

  private void recordPass(Map<String, Long> cached) {
    stats.pass(picture(cached));
  }

  /** The buffer now, with cached bytes from {@code cached} (a cache walk's picture; empty: none). */
  private BufferStats.Pass picture(Map<String, Long> cached) {
    int generations = 0;
    int files = 0;
    long bytes = 0;
    long bytesCached = 0;
    long outputs = 0;
    long outputsCached = 0;
    long rows = 0;
    long filterBytes = 0;
    for (BufferGeneration g : storeFileManager.generations()) {
      BufferGeneration.Figures f = g.figures(cached);
      generations++;
      files += f.leafFiles();
      bytes += f.leafBytes();
      bytesCached += f.leafCachedBytes();
      outputs += f.outputBytes();
      outputsCached += f.outputCachedBytes();
      rows += f.changedRows();
      filterBytes += f.rowFilterBytes();
    }
    return new BufferStats.Pass(generations, files, bytes, bytesCached, outputs, outputsCached, rows, filterBytes);
  }

  /** Reads use every generation's output alone (for tests that compare the two ways). */
  void readOutputsOnly(boolean outputsOnly) {
    storeFileManager.setOutputsOnly(outputsOnly);
  }

  BufferStats stats() {
    return stats;
  }

  /** The store's file manager, with the buffer's generations. */
  BufferedStoreFileManager storeFiles() {
    return storeFileManager;
  }

  /** The bean's view of this store's buffer. */
  private final class Metrics implements CairnBufferMetricsMBean {
    @Override
    public int getGenerations() {
      return picture(Map.of()).generations();
    }

    @Override
    public int getBufferFiles() {
      return picture(Map.of()).bufferFiles();
    }

    @Override
    public long getBufferBytes() {
      return picture(Map.of()).bufferBytes();
    }

    @Override
    public double getBufferCachedFraction() {
      BufferStats.Pass p = stats.lastPass();
      return p.bufferBytes() == 0 ? 0 : (double) p.bufferCachedBytes() / p.bufferBytes();
    }

    @Override
    public long getOutputBytes() {
      return picture(Map.of()).outputBytes();
    }

    @Override
    public double getOutputCachedFraction() {
      BufferStats.Pass p = stats.lastPass();
      return p.outputBytes() == 0 ? 0 : (double) p.outputCachedBytes() / p.outputBytes();
    }

    @Override
    public long getChangedRows() {
      return picture(Map.of()).changedRows();
    }

    @Override
    public long getLeafFilesOpened() {
      return stats.leafFilesOpened();
    }

    @Override
    public long getLeafFilesSkipped() {
      return stats.leafFilesSkipped();
    }

    @Override
    public long getRowFilterBytes() {
      return picture(Map.of()).rowFilterBytes();
    }

    @Override
    public long getWarmHandOvers() {
      return stats.warmHandOvers();
    }

    @Override
    public long getWarmedBlocks() {
      return stats.warmedBlocks();
    }

    @Override
    public long getWarmedBytes() {
      return stats.warmedBytes();
    }

    @Override
    public long getReadsFromBuffer() {
      return stats.leafReads();
    }

    @Override
    public long getReadsFromOutputs() {
      return stats.outputReads();
    }

    @Override
    public long getBufferedCompactions() {
      return stats.bufferedCompactions();
    }

    @Override
    public long getUnbufferedCompactions() {
      return stats.unbufferedCompactions();
    }

    @Override
    public String getLastNotBufferedReason() {
      return stats.lastNotBuffered();
    }

    @Override
    public long getRetiredCooled() {
      return stats.retiredFor(GenerationTrim.Reason.COOLED);
    }

    @Override
    public long getRetiredOutputWarm() {
      return stats.retiredFor(GenerationTrim.Reason.OUTPUT_WARM);
    }

    @Override
    public long getRetiredOutgrown() {
      return stats.retiredFor(GenerationTrim.Reason.OUTGROWN);
    }

    @Override
    public long getRetiredDiluted() {
      return stats.retiredFor(GenerationTrim.Reason.DILUTED);
    }

    @Override
    public long getRetiredOverBudget() {
      return stats.retiredFor(GenerationTrim.Reason.OVER_BUDGET);
    }

    @Override
    public long getRetiredByUnbufferedCompaction() {
      return stats.retiredUnbuffered();
    }
  }
}
