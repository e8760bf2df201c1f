package dev.cairn.version;

import dev.cairn.Options;
import dev.cairn.key.InternalKey;
import dev.cairn.key.InternalKeyComparator;
import dev.cairn.model.BufferRun;
import dev.cairn.model.BufferedLevels;
import dev.cairn.util.FixedList;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

/**
 * An immutable snapshot of the tables of every level. Invariants (checked on construction when
 * the system property {@code cairn.paranoid=true}, and on recovery always):
 *
 * <ul>
 *   <li>level 0 is ordered newest first: largest sequence descending, then file number
 *       descending; its files may overlap, and each is its own sorted run;
 *   <li>levels 1+ are sorted by smallest key and do not overlap: {@code largest(f) <
 *       smallest(next f)} in internal-key order; each level is one sorted run.
 * </ul>
 *
 * <p>Reference counted: a reader that keeps a version past the engine mutex pins it with {@link
 * #ref()} (or {@link VersionSet#refCurrent()}) and releases it with {@link #unref()}; while any
 * reference is held its files stay in {@link VersionSet#liveFileNumbers()} and are not deleted.
 * The count goes 0 (new) → n → 0 → released; once released a version cannot be referenced again.
 * {@code ref}/{@code unref} are thread-safe; everything else is immutable.
 *
 * <p>A version also keeps, per file, what its readers open on that file's behalf and leave for
 * the next reader ({@link #kept}, {@link #keep}): the engine keeps a table handle there, so a
 * point read of a version the reads share takes no table-cache reference of its own. The last
 * reference's release closes what the version kept, before its version set hears of the release.
 */
public final class Version implements BufferedLevels<FileMetaData> {
  static final boolean PARANOID = Boolean.getBoolean("cairn.paranoid");
  private static final int RELEASED = -1;

  // Immutable after construction.
  private final List<List<FileMetaData>> levels;
  /**
   * Per level, the compaction buffer's runs, newest first (LSbM; empty unless the BUFFER style
   * wrote some, in this open or an earlier one).
   */
  private final List<List<BufferRun<FileMetaData>>> buffers;
  private final Consumer<Version> onRelease;
  /** See {@link #logNumber()}. */
  private final long logNumber;
  /** See {@link #mayHoldRangeTombstones()}. */
  private final boolean rangeDeletions;
  /** See {@link #largestSequence(int)}; null until first asked. */
  private volatile long[] largestSequences;
  /** See {@link #rangeTombstones}; null until first asked. */
  private volatile dev.cairn.key.RangeTombstones rangeTombstones;

  private final AtomicInteger refs = new AtomicInteger();
  private final KeptPerFile kept;

  /**
   * @param levels per level, files already in the order of the invariants (see {@link
   *     VersionBuilder}); the lists are copied, into lists of one class whatever their size
   *     ({@link FixedList}: the read path's compiled code sees no other)
   * @param buffers per level, buffer runs newest first (largest id first)
   * @param onRelease called once, on the thread that drops the last reference
   * @param logNumber the manifest's log number as of this version: logs older than it are flushed into it
   */
  Version(List<List<FileMetaData>> levels, List<List<BufferRun<FileMetaData>>> buffers, Consumer<Version> onRelease,
      long logNumber, boolean rangeDeletions) {
    this.logNumber = logNumber;
    this.rangeDeletions = rangeDeletions;
    if (levels.size() != Options.MAX_LEVELS) {
      throw new IllegalArgumentException(levels.size() + " levels, expected " + Options.MAX_LEVELS);
    }
    List<List<FileMetaData>> copy = new ArrayList<>(levels.size());
    for (List<FileMetaData> files : levels) {
      copy.add(FixedList.copyOf(files));
    }
    this.levels = Collections.unmodifiableList(copy);
    this.kept = new KeptPerFile(this.levels);
    if (buffers.size() != Options.MAX_LEVELS) {
      throw new IllegalArgumentException(buffers.size() + " buffer levels, expected " + Options.MAX_LEVELS);
    }
    List<List<BufferRun<FileMetaData>>> bufferCopy = new ArrayList<>(buffers.size());
    for (List<BufferRun<FileMetaData>> tables : buffers) {
      for (int i = 1; i < tables.size(); i++) {
        if (tables.get(i - 1).id() <= tables.get(i).id()) {
          throw new IllegalArgumentException("buffer runs out of newest-first order: " + tables);
        }
      }
      bufferCopy.add(FixedList.copyOf(tables));
    }
    this.buffers = Collections.unmodifiableList(bufferCopy);
    this.onRelease = onRelease;
    if (PARANOID) {
      String problem = checkInvariants(this.levels);
      if (problem != null) {
        throw new IllegalStateException("version violates its invariants: " + problem + ". This is a bug.");
      }
    }
  }

  /** An empty version of {@link Options#MAX_LEVELS} levels, not owned by a version set. */
  static Version empty(Consumer<Version> onRelease) {
    return new Version(Collections.nCopies(Options.MAX_LEVELS, List.of()),
        Collections.nCopies(Options.MAX_LEVELS, List.of()), onRelease, 0, false);
  }

  /**
   * The manifest's log number as of this version (LevelDB's {@code log_number}): the writes of
   * every older log are in its tables, so a memtable of such a log is flushed into it.
   */
  public long logNumber() {
    return logNumber;
  }

  /**
   * The largest sequence of {@code level}'s files and of its buffer's (a scan may read a level
   * file from the buffer files it was merged from, which may hold newer entries the merge
   * dropped): no entry an iterator reads from the level is newer. Found once per version, when
   * first asked (by an iterator of a database with range tombstones).
   */
  public long largestSequence(int level) {
    long[] known = largestSequences;
    if (known == null) {
      known = new long[levels.size()];
      for (int l = 0; l < known.length; l++) {
        for (FileMetaData f : levels.get(l)) {
          known[l] = Math.max(known[l], f.largestSequence());
        }
        for (BufferRun<FileMetaData> run : buffers.get(l)) {
          for (FileMetaData f : run.allFiles()) {
            known[l] = Math.max(known[l], f.largestSequence());
          }
        }
      }
      largestSequences = known; // derived data: a race computes it twice, never wrongly
    }
    return known[level];
  }

  /**
   * Whether this version's tables may hold range tombstones: the manifest was marked when a
   * flush first wrote one ({@link VersionEdit#markRangeDeletions()}). When not, a reader looks
   * for none and opens no table to find out.
   */
  public boolean mayHoldRangeTombstones() {
    return rangeDeletions;
  }

  /**
   * The range tombstones of every table in the levels and their compaction buffers, found once
   * per version by {@code ofFiles} and kept: a version never changes. The buffers' count because
   * an iterator may read a level file from its sources in the buffer, and a bottommost merge may
   * have dropped a source's tombstone with everything it covered; a tombstone applied where its
   * entries are gone is harmless, since it deletes only what was written before it.
   */
  public dev.cairn.key.RangeTombstones rangeTombstones(
      java.util.function.Function<List<FileMetaData>, dev.cairn.key.RangeTombstones> ofFiles) {
    dev.cairn.key.RangeTombstones known = rangeTombstones;
    if (known == null) {
      java.util.Set<FileMetaData> all = new java.util.LinkedHashSet<>();
      levels.forEach(all::addAll);
      buffers.forEach(runs -> runs.forEach(run -> all.addAll(run.allFiles())));
      known = ofFiles.apply(new ArrayList<>(all));
      rangeTombstones = known; // derived data: a race computes it twice, never wrongly
    }
    return known;
  }

  /** The first invariant {@code levels} break, or null. */
  static String checkInvariants(List<List<FileMetaData>> levels) {
    List<FileMetaData> l0 = levels.get(0);
    for (int i = 1; i < l0.size(); i++) {
      if (VersionBuilder.NEWEST_FIRST.compare(l0.get(i - 1), l0.get(i)) > 0) {
        return "level 0 file #" + l0.get(i - 1).number() + " is ordered before newer file #" + l0.get(i).number();
      }
    }
    for (int level = 1; level < levels.size(); level++) {
      List<FileMetaData> files = levels.get(level);
      for (int i = 1; i < files.size(); i++) {
        FileMetaData prev = files.get(i - 1);
        FileMetaData next = files.get(i);
        if (InternalKeyComparator.INSTANCE.compare(prev.largest(), next.smallest()) >= 0) {
          return "level " + level + " files #" + prev.number() + " (largest " + InternalKey.describe(prev.largest())
              + ") and #" + next.number() + " (smallest " + InternalKey.describe(next.smallest())
              + ") overlap or are out of order";
        }
      }
    }
    return null;
  }

  public int numLevels() {
    return levels.size();
  }

  /** The files of {@code level}, in the order of the class invariants. */
  @Override
  public List<FileMetaData> files(int level) {
    return levels.get(level);
  }

  public int fileCount(int level) {
    return levels.get(level).size();
  }

  /** Bytes the level's files occupy on disk ({@link FileMetaData#totalBytes()}). */
  public long levelBytes(int level) {
    long sum = 0;
    for (FileMetaData f : levels.get(level)) {
      sum += f.totalBytes();
    }
    return sum;
  }

  /** Sorted runs of {@code level}: on level 0 each file alone, newest first; on 1+ the level. */
  public List<List<FileMetaData>> sortedRuns(int level) {
    List<FileMetaData> files = levels.get(level);
    if (files.isEmpty()) {
      return List.of();
    }
    if (level > 0) {
      return List.of(files);
    }
    List<List<FileMetaData>> runs = new ArrayList<>(files.size());
    for (FileMetaData f : files) {
      runs.add(List.of(f));
    }
    return Collections.unmodifiableList(runs);
  }

  /** The compaction buffer's tables of {@code level}, newest first, markers included. */
  @Override
  public List<BufferRun<FileMetaData>> bufferRuns(int level) {
    return buffers.get(level);
  }

  /** Whether any level has a buffer run. */
  public boolean hasBuffer() {
    for (List<BufferRun<FileMetaData>> tables : buffers) {
      if (!tables.isEmpty()) {
        return true;
      }
    }
    return false;
  }

  /**
   * Files of {@code level} whose user-key range intersects [{@code smallestUserKey}, {@code
   * largestUserKey}]; a null bound is open. Level 0 in newest-first order, 1+ in key order. Unlike
   * LevelDB's compaction input selection this does not widen the range by the level 0 files it
   * finds; pickers that need that do it themselves.
   */
  public List<FileMetaData> overlappingFiles(int level, byte[] smallestUserKey, byte[] largestUserKey) {
    List<FileMetaData> files = levels.get(level);
    List<FileMetaData> out = new ArrayList<>();
    int start = 0;
    if (level > 0 && smallestUserKey != null) {
      // Non-overlapping and sorted: binary search the first file ending at or after the bound.
      int lo = 0;
      int hi = files.size();
      while (lo < hi) {
        int mid = (lo + hi) >>> 1;
        if (compareToUserKeyOf(smallestUserKey, files.get(mid).largest()) > 0) {
          lo = mid + 1;
        } else {
          hi = mid;
        }
      }
      start = lo;
    }
    for (int i = start; i < files.size(); i++) {
      FileMetaData f = files.get(i);
      boolean endsBefore = smallestUserKey != null && compareToUserKeyOf(smallestUserKey, f.largest()) > 0;
      boolean startsAfter = largestUserKey != null && compareToUserKeyOf(largestUserKey, f.smallest()) < 0;
      if (startsAfter && level > 0) {
        break;
      }
      if (!endsBefore && !startsAfter) {
        out.add(f);
      }
    }
    return out;
  }

  /** Compares a user key with the user-key part of an internal key. */
  static int compareToUserKeyOf(byte[] userKey, byte[] internalKey) {
    return Arrays.compareUnsigned(userKey, 0, userKey.length,
        internalKey, 0, internalKey.length - InternalKey.TRAILER_BYTES);
  }

  /** Numbers of every file in this version: the levels' and the compaction buffers'. */
  public Set<Long> liveFileNumbers() {
    Set<Long> out = levelFileNumbers();
    addBufferFileNumbers(out);
    return out;
  }

  /**
   * Every table this version names, in its levels or its compaction buffers, once each, by file
   * number: what a copy of the database needs.
   */
  public SortedMap<Long, FileMetaData> allTables() {
    SortedMap<Long, FileMetaData> out = new TreeMap<>();
    for (List<FileMetaData> files : levels) {
      files.forEach(f -> out.put(f.number(), f));
    }
    for (List<BufferRun<FileMetaData>> tables : buffers) {
      for (BufferRun<FileMetaData> t : tables) {
        t.allFiles().forEach(f -> out.putIfAbsent(f.number(), f));
      }
    }
    return out;
  }

  /** Adds the numbers of the compaction buffers' files to {@code out}. */
  void addBufferFileNumbers(Set<Long> out) {
    for (List<BufferRun<FileMetaData>> tables : buffers) {
      for (BufferRun<FileMetaData> t : tables) {
        t.allFiles().forEach(f -> out.add(f.number()));
      }
    }
  }

  /** Numbers of the files of the levels only. */
  Set<Long> levelFileNumbers() {
    Set<Long> out = new HashSet<>();
    for (List<FileMetaData> files : levels) {
      for (FileMetaData f : files) {
        out.add(f.number());
      }
    }
    return out;
  }

  /** Pins this version. Throws if it was already released (a use-after-release bug). */
  public void ref() {
    if (!tryRef()) {
      throw new IllegalStateException("ref() of a released version. This is a bug.");
    }
  }

  /** Pins this version unless it was already released; returns whether it did. */
  boolean tryRef() {
    while (true) {
      int n = refs.get();
      if (n == RELEASED) {
        return false;
      }
      if (refs.compareAndSet(n, n + 1)) {
        return true;
      }
    }
  }

  /** Drops a reference; the last one releases the version and notifies its version set. */
  public void unref() {
    int n = refs.decrementAndGet();
    if (n < 0) {
      throw new IllegalStateException("unref() without a matching ref(). This is a bug.");
    }
    // A concurrent tryRef() may revive the count between the decrement and this CAS; then the
    // CAS fails and that reader's own unref() releases the version later.
    if (n == 0 && refs.compareAndSet(0, RELEASED)) {
      try {
        kept.sealAndClose();
      } finally {
        onRelease.accept(this);
      }
    }
  }

  /**
   * What this version keeps for the {@code index}th file of {@code level} ({@link #files}'s
   * order), or null. Valid while the caller holds a reference.
   */
  public AutoCloseable kept(int level, int index) {
    return kept.get(level, index);
  }

  /**
   * Keeps {@code resource} for the {@code index}th file of {@code level} until this version is
   * released, if nothing is kept there yet and the version is referenced; returns whether it
   * did. If not, the caller still owns {@code resource}. Requires: the caller holds a reference
   * (a version nobody references may never be released, and would never close it).
   */
  public boolean keep(int level, int index, AutoCloseable resource) {
    return refs.get() > 0 && kept.offer(level, index, resource);
  }

  /** Files of every level: how many resources this version may keep. */
  public int totalFiles() {
    return kept.size();
  }

  /**
   * Closes what this version keeps and refuses anything offered later; for the engine's close,
   * when the version set's own reference is never dropped. Idempotent.
   */
  public void closeKept() {
    kept.sealAndClose();
  }

  /** Current reference count, or -1 once released (for tests and assertions). */
  int refCount() {
    return refs.get();
  }

  @Override
  public String toString() {
    StringBuilder sb = new StringBuilder();
    for (int level = 0; level < levels.size(); level++) {
      List<FileMetaData> files = levels.get(level);
      if (!files.isEmpty()) {
        sb.append("L").append(level).append(':');
        for (FileMetaData f : files) {
          sb.append(" #").append(f.number()).append('[').append(InternalKey.describe(f.smallest()))
              .append("..").append(InternalKey.describe(f.largest())).append(']');
        }
        sb.append('\n');
      }
      for (BufferRun<FileMetaData> t : buffers.get(level)) {
        sb.append("B").append(level).append(" table ").append(t.id()).append(':');
        t.entries().forEach(e -> sb.append(' ').append(e));
        sb.append('\n');
      }
    }
    return sb.length() == 0 ? "(empty)\n" : sb.toString();
  }
}
