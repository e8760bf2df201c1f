package dev.cairn.hbase;

import dev.cairn.compaction.dlc.LoadClass;
import dev.cairn.hbase.tiered.StoreFile;
import dev.cairn.hbase.tiered.StoreRequest;
import dev.cairn.hbase.tiered.TieredDlcConfig;
import dev.cairn.hbase.tiered.TieredDlcPolicy;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import javax.management.ObjectName;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.io.hfile.BlockCache;
import org.apache.hadoop.hbase.regionserver.HRegion;
import org.apache.hadoop.hbase.regionserver.HStore;
import org.apache.hadoop.hbase.regionserver.HStoreFile;
import org.apache.hadoop.hbase.regionserver.Store;
import org.apache.hadoop.hbase.regionserver.StoreConfigInformation;
import org.apache.hadoop.hbase.regionserver.StoreFileReader;
import org.apache.hadoop.hbase.regionserver.compactions.CompactionLifeCycleTracker;
import org.apache.hadoop.hbase.regionserver.compactions.CompactionRequestImpl;
import org.apache.hadoop.hbase.regionserver.compactions.ExploringCompactionPolicy;
import org.apache.hadoop.hbase.util.Bytes;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Cairn's compaction policy for HBase's default store engine, selected per table or family with
 * {@code hbase.hstore.defaultengine.compactionpolicy.class = dev.cairn.hbase.CairnCompactionPolicy}.
 *
 * <p>HBase's exploring policy still selects; Cairn decides whether and what runs now ({@link
 * TieredDlcPolicy}, pure, in cairn-compaction): under a high read load it holds back minor
 * compactions of fresh flushes, merges fresh flushes among themselves (part runs), ends the delay
 * well below {@code hbase.hstore.blockingStoreFiles} or after a maximum delay, and then runs the
 * in-ratio window that evicts the fewest cached bytes. User requests, major compactions, off-peak
 * hours and split daughters' references are never delayed. A declined selection is an empty
 * request, never null; the store asks again at its next flush, and the server's ticker asks for
 * it when the load turns low or the delay reaches its bound ({@link ServerLoad}).
 *
 * <p>Settings are read from the store's configuration ({@link CairnOptions}). A bad setting is
 * logged with its key and the store compacts exactly as HBase would (a dry run), so a region
 * always opens. The compaction switch, the table's compaction flag and the throughput controller
 * act before and after the policy, as for HBase's own.
 *
 * <p>Thread safety: HBase calls {@link #selectCompaction} under the store's selection lock; the
 * ticker calls {@link #onTick}; both go through this object's monitor.
 */
public class CairnCompactionPolicy extends ExploringCompactionPolicy {
  private static final Logger LOG = LoggerFactory.getLogger(CairnCompactionPolicy.class);

  private final HStore store;
  private final CairnOptions options;
  private final boolean dryRun;
  private final TieredDlcPolicy policy;
  private ServerLoad serverLoad;
  private ObjectName beanName;
  private volatile String lastDecision = "none yet";
  /** Selections the policy decided (HBase's with a load picture); see {@link #lastDecision}. */
  private final AtomicLong decisions = new AtomicLong();
  /** Selections whose Cairn decision threw; HBase's own selection ran for each. */
  private final AtomicLong decisionFailures = new AtomicLong();
  /** The ticker's requests for a held-back compaction that HBase has returned from. */
  private final AtomicLong delayedCompactionRequests = new AtomicLong();
  /** When the ticker last asked this store for its delayed compaction (guarded by this). */
  private long lastAskNanos;

  public CairnCompactionPolicy(Configuration conf, StoreConfigInformation storeConfigInfo) {
    super(conf, storeConfigInfo);
    this.store = storeConfigInfo instanceof HStore h ? h : null;
    long flushBytes = storeConfigInfo.getMemStoreFlushSize();
    // The region must open whatever the settings: HBase's own selection is always at hand.
    CairnOptions read;
    boolean dry;
    try {
      read = CairnOptions.read(conf::get, OptionValues.keysOf(conf));
      dry = read.dryRun();
    } catch (IllegalArgumentException e) {
      LOG.error("cairn: {}; this store compacts as HBase's exploring policy would (dry run) until the setting is fixed",
          e.getMessage());
      read = CairnOptions.defaults();
      dry = true;
    }
    TieredDlcConfig tiered;
    try {
      tiered = read.tieredConfig(comConf.getMinFilesToCompact(), comConf.getMaxFilesToCompact(),
          comConf.getCompactionRatio(), flushBytes);
    } catch (IllegalArgumentException e) {
      // The store's Cairn settings stand (the server's load model may take them from this store).
      LOG.error("cairn: {}; this store compacts as HBase's exploring policy would (dry run) until the setting is fixed",
          e.getMessage());
      dry = true;
      tiered = TieredDlcConfig.defaults(Math.max(1, flushBytes));
    }
    this.options = read;
    this.dryRun = dry || !read.delay();
    this.policy = new TieredDlcPolicy(tiered, System::nanoTime);
  }

  @Override
  public CompactionRequestImpl selectCompaction(Collection<HStoreFile> candidateFiles,
      List<HStoreFile> filesCompacting, boolean isUserCompaction, boolean mayUseOffPeak, boolean forceMajor)
      throws IOException {
    CompactionRequestImpl hbase =
        super.selectCompaction(candidateFiles, filesCompacting, isUserCompaction, mayUseOffPeak, forceMajor);
    try {
      return cairnSelection(hbase, candidateFiles, filesCompacting, isUserCompaction, forceMajor);
    } catch (RuntimeException e) {
      // Cairn's choice only refines HBase's: a fault in it must never stop the store compacting.
      lastDecision = "FAILED: " + e;
      if (decisionFailures.incrementAndGet() == 1) {
        LOG.error("cairn: the policy's decision failed in {}; HBase's own selection runs instead"
            + " (logged once per store, counted in DecisionFailures)", store, e);
      } else {
        LOG.debug("cairn: the policy's decision failed again in {}", store, e);
      }
      return hbase;
    }
  }

  /** Cairn's selection beside HBase's {@code hbase}: HBase's own unless the policy delays or chooses colder files. */
  private CompactionRequestImpl cairnSelection(CompactionRequestImpl hbase, Collection<HStoreFile> candidateFiles,
      List<HStoreFile> filesCompacting, boolean isUserCompaction, boolean forceMajor) {
    ServerLoad load = serverLoad();
    if (load == null) {
      return hbase;
    }
    LoadClass loadClass = load.load();
    // At low load the decision is HBase's own and uses no cache picture; reading it anyway would
    // make the ticker walk the whole cache after every flush of a write-heavy server.
    boolean withCachedBytes = options.spareCached() && loadClass != LoadClass.LOW;
    List<HStoreFile> eligible = getCurrentEligibleFiles(new ArrayList<>(candidateFiles), filesCompacting);
    Map<HStoreFile, StoreFile> model = new IdentityHashMap<>();
    List<StoreFile> files = new ArrayList<>();
    for (int i = 0; i < eligible.size(); i++) {
      HStoreFile f = eligible.get(i);
      StoreFile m = model(i, f, withCachedBytes ? load : null);
      model.put(f, m);
      files.add(m);
    }
    List<StoreFile> selection = new ArrayList<>();
    for (HStoreFile f : hbase.getFiles()) {
      StoreFile m = model.get(f);
      if (m == null) {
        // HBase selected a file outside the eligible run (it never does): leave it to HBase.
        return hbase;
      }
      selection.add(m);
    }
    StoreRequest.Kind kind = isUserCompaction ? StoreRequest.Kind.USER
        : forceMajor || hbase.isMajor() ? StoreRequest.Kind.MAJOR
        : hbase.isOffPeak() ? StoreRequest.Kind.OFF_PEAK : StoreRequest.Kind.SYSTEM;
    // HBase takes a blocking count below 1 (every flush then waits its blocking time); read as 1,
    // the policy's file bound is always reached and it never delays.
    int blockingFiles = (int) Math.max(1, Math.min(Integer.MAX_VALUE, storeConfigInfo.getBlockingFileCount()));
    StoreRequest request = new StoreRequest(files, filesCompacting.size(), blockingFiles, kind, selection);
    TieredDlcPolicy.Decision decision;
    synchronized (this) {
      decision = policy.decide(loadClass, request);
    }
    lastDecision = decision.action() + ": " + decision.reason();
    decisions.incrementAndGet();
    if (decision.action() != TieredDlcPolicy.Action.AS_STORE) {
      LOG.debug("cairn: {} in {}", lastDecision, store);
    }
    if (dryRun || decision.action() == TieredDlcPolicy.Action.AS_STORE) {
      return hbase;
    }
    List<HStoreFile> chosen = new ArrayList<>();
    for (StoreFile m : decision.selection()) {
      chosen.add(eligible.get((int) m.id()));
    }
    CompactionRequestImpl cairn = new CompactionRequestImpl(chosen);
    cairn.setIsMajor(false, !chosen.isEmpty() && chosen.size() == candidateFiles.size());
    return cairn;
  }

  /**
   * The file as the pure policy sees it; its id is its index in the eligible run. Its cached
   * bytes are read from {@code load}'s cache picture, or taken as 0 when {@code load} is null.
   * Package-private so that a test's policy can make it fail, as a fault in Cairn's decision would.
   */
  StoreFile model(int index, HStoreFile f, ServerLoad load) {
    StoreFileReader reader = f.getReader();
    long size = reader == null ? 0 : reader.length();
    long cached = load == null ? 0 : Math.min(size, load.cachedBytes(f.getPath().getName()));
    return new StoreFile(index, size, cached, f.isReference(), f.excludeFromMinorCompaction());
  }

  /** The server's load picture, registering this store on first use; null without a block cache. */
  private synchronized ServerLoad serverLoad() {
    if (serverLoad != null) {
      return serverLoad;
    }
    if (store == null) {
      return null;
    }
    BlockCache cache = store.getCacheConfig().getBlockCache().orElse(null);
    if (cache == null) {
      return null; // a warm-up region, or a server without a block cache: HBase's policy alone
    }
    serverLoad = ServerLoad.join(cache, options, this);
    registerBean();
    return serverLoad;
  }

  /**
   * Called by the server's ticker after each load interval: asks the store for a compaction when
   * one is held back and the load has turned low or the delay has reached its bound; forgets the
   * store once its region closes.
   */
  void onTick(LoadClass before, LoadClass now) {
    HRegion region = store.getHRegion();
    if (region.isClosed() || region.isClosing()) {
      serverLoad.leave(this);
      unregisterBean();
      return;
    }
    boolean ask;
    synchronized (this) {
      long nowNanos = System.nanoTime();
      long bound = policy.config().maxDelayMillis() * 1_000_000;
      boolean loadFell = before == LoadClass.HIGH && now == LoadClass.LOW;
      // At the time bound, ask once per bound's length: HBase may ignore the request (the
      // compaction switch, the table's compaction flag), and the delay then stays in force.
      boolean atBound = policy.config().delayIsBounded() && policy.currentDelayNanos() >= bound
          && (lastAskNanos == 0 || nowNanos - lastAskNanos >= bound);
      ask = policy.delaying() && !dryRun && (loadFell || atBound);
      if (ask) {
        lastAskNanos = nowNanos;
      }
    }
    if (ask) {
      try {
        region.requestCompaction(Bytes.toBytes(store.getColumnFamilyName()),
            "cairn: a delayed compaction (load " + now + ")", Store.NO_PRIORITY, false,
            CompactionLifeCycleTracker.DUMMY);
      } catch (IOException | RuntimeException e) {
        LOG.warn("cairn: could not ask {} for its delayed compaction", store, e);
      } finally {
        delayedCompactionRequests.incrementAndGet();
      }
    }
  }

  // ---- metrics

  private void registerBean() {
    beanName = StoreBeans.register("CompactionPolicy", store, this, new Metrics(), CairnPolicyMetricsMBean.class);
  }

  private void unregisterBean() {
    StoreBeans.unregister(beanName, this);
    beanName = null;
  }

  /** The bean's view of this store's policy. */
  private final class Metrics implements CairnPolicyMetricsMBean {
    @Override
    public String getLoadClass() {
      return serverLoad.load().name();
    }

    @Override
    public double getClientReadBytesPerSecond() {
      return serverLoad.estimate().clientBytesPerSecond();
    }

    @Override
    public long getDelayedCompactions() {
      return counters().delayedCompactions();
    }

    @Override
    public long getPartRuns() {
      return counters().partRuns();
    }

    @Override
    public long getReleasesAtBound() {
      return counters().releasesAtBound();
    }

    @Override
    public long getColderChoices() {
      return counters().colderChoices();
    }

    @Override
    public long getSparedCachedBytes() {
      return counters().sparedCachedBytes();
    }

    @Override
    public long getCurrentDelayMillis() {
      synchronized (CairnCompactionPolicy.this) {
        return policy.currentDelayNanos() / 1_000_000;
      }
    }

    @Override
    public long getCacheWalks() {
      return serverLoad.cacheWalks();
    }

    @Override
    public double getCachedFraction() {
      // The store's files now, against the cache as of the ticker's last walk.
      long bytes = 0;
      long cached = 0;
      for (HStoreFile f : store.getStorefiles()) {
        StoreFileReader reader = f.getReader();
        long size = reader == null ? 0 : reader.length();
        bytes += size;
        cached += Math.min(size, serverLoad.cachedBytes(f.getPath().getName()));
      }
      return bytes == 0 ? 0 : (double) cached / bytes;
    }

    @Override
    public String getLastDecision() {
      return lastDecision;
    }

    @Override
    public long getDecisions() {
      return decisions.get();
    }

    @Override
    public long getDelayedCompactionRequests() {
      return delayedCompactionRequests.get();
    }

    @Override
    public long getDecisionFailures() {
      return decisionFailures.get();
    }

    @Override
    public boolean isDryRun() {
      return dryRun;
    }

    private TieredDlcPolicy.Counters counters() {
      synchronized (CairnCompactionPolicy.this) {
        return policy.counters();
      }
    }
  }
}
