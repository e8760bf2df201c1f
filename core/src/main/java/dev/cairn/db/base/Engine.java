package dev.cairn.db.base;

import dev.cairn.Options;
import dev.cairn.cache.BlockCache;
import dev.cairn.cache.OffHeapBlockCache;
import dev.cairn.fs.FileSystem;
import dev.cairn.fs.IncrementalSyncFile;
import dev.cairn.table.cache.TableCache;
import dev.cairn.table.cache.TableCacheBudget;
import dev.cairn.util.Teardown;
import dev.cairn.version.Version;
import dev.cairn.version.VersionSet;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;

/**
 * The engine context: the collaborators every part of the engine shares, built once at open and
 * never replaced. The parts take this (or only the objects of it they need) instead of reaching
 * into one another's fields.
 *
 * <p>Locking. One {@link #mutex()} guards the engine's mutable state; each class that owns some of
 * that state marks its fields "guarded by the engine mutex", and its methods that need the lock
 * say "Requires: mutex held". {@link #backgroundChanged()} is signalled whenever background work
 * finishes or the engine's state changes (docs/architecture.md, "Threads and locking").
 */
public final class Engine {
  private final Path dir;
  private final Options options;
  /** A TTL database's write times ({@link Options#ttl()}), or null. */
  private final WriteTimes writeTimes;
  private final dev.cairn.key.Merger merger;
  /** The user's compaction filter (under a TTL, seeing values without their write time), or null. */
  private final dev.cairn.CompactionFilter compactionFilter;
  /** Set after compactions were discarded for snapshots twice in a row: the next run without the user's filter. */
  private volatile boolean userFilterPaused;
  private final FileSystem fs;
  private final EngineCounters counters = new EngineCounters();
  private final EngineEvents events;
  private final ReentrantLock mutex = new ReentrantLock();
  private final Condition backgroundChanged = mutex.newCondition();
  private final SnapshotList snapshots = new SnapshotList();
  private final BlockCache blockCache;
  private final TableCache tableCache;
  private final VersionSet versions;
  /** The current version's references point reads keep per thread stripe; scraped at each install. */
  private final CachedVersions cachedVersions;
  private final EditInstaller installer;
  private final PendingOutputs pendingOutputs;
  private final EngineStatus status;
  private final BackgroundRequests background = new BackgroundRequests();
  private final TableLinks tableLinks;
  /** What this database shares with others, or null. */
  private final SharedPools shared;
  /** Guarded by the mutex: told of each version installed ({@link #onVersionInstalled}). */
  private final List<Consumer<Version>> installed = new ArrayList<>();

  public Engine(Path dir, Options options) {
    this(dir, options, null);
  }

  /**
   * @param shared the cache, threads and memtable budget this database shares with others, or
   *     null for its own (the options' cache and threads)
   */
  public Engine(Path dir, Options options, SharedPools shared) {
    this.dir = dir;
    this.shared = shared;
    this.options = options;
    this.writeTimes = WriteTimes.of(options);
    this.merger = dev.cairn.key.Merger.of(options.mergeOperator());
    this.compactionFilter = writeTimes != null && options.compactionFilter() != null
        ? writeTimes.userFilter(options.compactionFilter()) : options.compactionFilter();
    this.events = new EngineEvents(dir.toString());
    // Outputs synced as they grow when Options.bytesPerSync asks for it, whoever writes them.
    this.fs = IncrementalSyncFile.syncingOutputs(options.fileSystem(), options.bytesPerSync());
    this.blockCache = shared == null
        ? new OffHeapBlockCache(options.blockCacheBytes(), options.blockCacheEvictionPolicy())
        : shared.openShare();
    this.tableCache = new TableCache(fs, dir, tableCacheBudget(options, shared), blockCache);
    this.versions = new VersionSet(dir, fs, options);
    this.cachedVersions = new CachedVersions(versions);
    versions.setVersionInstalledListener(this::versionInstalled);
    this.pendingOutputs = new PendingOutputs(mutex, versions);
    this.status = new EngineStatus(dir, backgroundChanged);
    this.installer = new EditInstaller(mutex, versions, status);
    this.tableLinks = new TableLinks(fs);
  }

  /**
   * The bounds of this database's open tables: the shared resources', else the process's when
   * the options leave them to the engine (docs/decisions/0028), else its own.
   */
  private static TableCacheBudget tableCacheBudget(Options options, SharedPools shared) {
    if (shared != null) {
      return shared.tableCacheBudget();
    }
    if (options.tableCacheBoundsDerived()) {
      return TableCacheBudget.processWide(options.tableCacheFiles(), options.tableCacheBytes());
    }
    return TableCacheBudget.forOneDatabase(options.tableCacheFiles(), options.tableCacheBytes());
  }

  /** Under the mutex, after each install: the replaced version's cached references go first. */
  private void versionInstalled() {
    cachedVersions.scrape();
    Version current = versions.current();
    for (Consumer<Version> listener : installed) {
      listener.accept(current);
    }
  }

  /**
   * Requires: mutex held. {@code listener} is told of every version installed from now on, with
   * the mutex held, right after it becomes current, after the listeners added before it. It must
   * not block or install.
   */
  public void onVersionInstalled(Consumer<Version> listener) {
    assert mutex.isHeldByCurrentThread();
    installed.add(Objects.requireNonNull(listener));
  }

  /** The references to the current version that point reads keep ({@link CachedVersions}). */
  public CachedVersions cachedVersions() {
    return cachedVersions;
  }

  /** The database directory. */
  public Path dir() {
    return dir;
  }

  public Options options() {
    return options;
  }

  /** The merge operator as reads and compactions call it. */
  public dev.cairn.key.Merger merger() {
    return merger;
  }

  /** A TTL database's write times, or null when values are stored as written. */
  public WriteTimes writeTimes() {
    return writeTimes;
  }

  /** The user's filter for a compaction starting now, or null: none, or paused ({@link #pauseUserFilter}). */
  public dev.cairn.CompactionFilter compactionFilter() {
    return userFilterPaused ? null : compactionFilter;
  }

  /**
   * Pauses or resumes the user's filter: compactions discarded for a snapshot taken while they ran
   * again and again (a snapshot opened during each) would otherwise never install; a run without
   * the filter always can, and the values it would have changed wait for a later compaction.
   */
  public void pauseUserFilter(boolean paused) {
    userFilterPaused = paused;
  }

  /** Whether a stored value has expired, for a compaction starting now; null without a TTL. */
  public java.util.function.Predicate<byte[]> compactionExpiry() {
    if (writeTimes == null) {
      return null;
    }
    long now = writeTimes.now();
    return stored -> writeTimes.expired(stored, now);
  }

  /** The filesystem every file goes through ({@link Options#fileSystem()}). */
  public FileSystem fs() {
    return fs;
  }

  /** The lines an operator reads: flushes, compactions, write stops. Thread-safe. */
  public EngineEvents events() {
    return events;
  }

  /** The engine's own counters and latencies. Thread-safe. */
  public EngineCounters counters() {
    return counters;
  }

  /** Guards the engine's mutable state (the fields marked "guarded by the engine mutex"). */
  public ReentrantLock mutex() {
    return mutex;
  }

  /** Signalled whenever background work finishes or the engine's state changes. */
  public Condition backgroundChanged() {
    return backgroundChanged;
  }

  /** Installs the running engine's version edits, the manifest synced without the mutex. */
  public EditInstaller installer() {
    return installer;
  }

  /** The sequences of open snapshots. Thread-safe. */
  public SnapshotList snapshots() {
    return snapshots;
  }

  public BlockCache blockCache() {
    return blockCache;
  }

  public TableCache tableCache() {
    return tableCache;
  }

  /**
   * Gives back the tables this database keeps to their budget and its blocks to the block cache
   * (a shared cache's share only: the cache stays), the second even if the first throws. Run once,
   * when the database closes or its open fails.
   */
  public void releaseCaches() {
    Teardown.runAll("releasing the caches of " + dir, tableCache::close, blockCache::close);
  }

  /** The manifest and the current version ({@link VersionSet}'s own rules say what needs the mutex). */
  public VersionSet versions() {
    return versions;
  }

  /** Table numbers being written, which obsolete-file collection must keep. */
  public PendingOutputs pendingOutputs() {
    return pendingOutputs;
  }

  /** Whether the engine is closing, and the latched background error. */
  public EngineStatus status() {
    return status;
  }

  /** The cache, threads and memtable budget shared with other databases, or null for none. */
  public SharedPools shared() {
    return shared;
  }

  /** How many compactions may run at once: the shared compaction threads, or one less than the options' threads. */
  public int compactionThreads() {
    return shared != null ? shared.compactionThreads() : Math.max(1, options.backgroundThreads() - 1);
  }

  /** Appends in place and a checkpoint's links, kept apart ({@link TableLinks}). */
  public TableLinks tableLinks() {
    return tableLinks;
  }

  /** How to ask for background work (flushes, compactions, obsolete-file collection). */
  public BackgroundRequests background() {
    return background;
  }
}
