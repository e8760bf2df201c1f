package dev.cairn.model;

import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * One entry of a buffer run (LSbM, docs/compaction.md "Compaction buffer"): either a table file
 * that left the main tree but still serves reads, or a removed marker that only keeps a user-key
 * range. A read that meets a marker covering its key stops walking the buffer and falls back to
 * the level's own file. Entries of one run never share a user key, so an entry is identified
 * within its run by its smallest user key.
 *
 * @param <F> the engine's table file (core's file metadata; a test record in tests)
 */
public sealed interface BufferEntry<F extends TableFile> permits BufferEntry.File, BufferEntry.Removed {
  /** Smallest user key covered (inclusive). */
  byte[] smallestUserKey();

  /** Largest user key covered (inclusive). */
  byte[] largestUserKey();

  /** Whether [{@code smallest}, {@code largest}] (user keys, inclusive) meets this entry's range. */
  default boolean overlaps(byte[] smallest, byte[] largest) {
    return UserKeyOrder.compare(smallest, largestUserKey()) <= 0
        && UserKeyOrder.compare(largest, smallestUserKey()) >= 0;
  }

  default boolean covers(byte[] userKey) {
    return overlaps(userKey, userKey);
  }

  /** This entry narrowed to [{@code lo}, {@code hi}] (inclusive), or null when it lies outside. */
  BufferEntry<F> clip(byte[] lo, byte[] hi);

  /**
   * A table file kept in the buffer; the file is not copied, the main tree's file is reused. The
   * entry answers for the keys of [{@code smallestUserKey}, {@code largestUserKey}] only: the whole
   * file when appended, a part of it once the trim has turned its cold block runs into removed
   * markers beside it (docs/compaction.md, "Trim units"). The pieces of one file always cover
   * every key the file holds, so no key of the file falls between them.
   *
   * <p>{@code carried} (newest first, usually empty) is the buffer the file had as a level file:
   * when a merge appends a file of level i to level i+1's buffer, the entries of level i's buffer
   * over the file's range come along, clipped to it (docs/compaction.md, "Carried buffers"). A
   * walk that reaches the entry treats the file as a level file with that buffer: the file's
   * filter first, then the carried runs newest first, then the file itself. So the blocks that
   * served the range's reads at level i keep serving them at level i+1. Skipping the carried
   * runs when the file's filter rules the key out is the same gate level i applied to them
   * with the file as its level file. Every carried entry lies within this entry's range.
   */
  record File<F extends TableFile>(F meta, byte[] smallestUserKey, byte[] largestUserKey,
      List<BufferRun<F>> carried) implements BufferEntry<F> {
    public File {
      smallestUserKey = smallestUserKey.clone();
      largestUserKey = largestUserKey.clone();
      carried = List.copyOf(carried);
      if (UserKeyOrder.compare(smallestUserKey, largestUserKey) > 0) {
        throw new IllegalArgumentException("buffer file #" + meta.number() + ": smallest key is above its largest");
      }
      if (UserKeyOrder.compare(smallestUserKey, meta.smallestUserKey()) < 0
          || UserKeyOrder.compare(largestUserKey, meta.largestUserKey()) > 0) {
        throw new IllegalArgumentException("buffer file #" + meta.number() + ": range ["
            + UserKeyOrder.printable(smallestUserKey) + ".." + UserKeyOrder.printable(largestUserKey)
            + "] reaches outside the file's keys");
      }
      for (BufferRun<F> t : carried) {
        for (BufferEntry<F> e : t.entries()) {
          if (UserKeyOrder.compare(e.smallestUserKey(), smallestUserKey) < 0
              || UserKeyOrder.compare(e.largestUserKey(), largestUserKey) > 0) {
            throw new IllegalArgumentException("buffer file #" + meta.number() + ": carried entry " + e
                + " reaches outside its range");
          }
        }
      }
    }

    /** A part of the file with no carried buffer. */
    public File(F meta, byte[] smallestUserKey, byte[] largestUserKey) {
      this(meta, smallestUserKey, largestUserKey, List.of());
    }

    /** The whole file. */
    public File(F meta) {
      this(meta, meta.smallestUserKey(), meta.largestUserKey());
    }

    /** Whether this entry answers for the whole file (not a part the trim left). */
    public boolean whole() {
      return Arrays.equals(smallestUserKey, meta.smallestUserKey()) && Arrays.equals(largestUserKey, meta.largestUserKey());
    }

    /** This file and, recursively, the files its carried buffer holds, each once: what it keeps on disk. */
    public Set<F> allFiles() {
      Set<F> out = new LinkedHashSet<>();
      out.add(meta);
      carried.forEach(t -> out.addAll(t.allFiles()));
      return out;
    }

    /** The same range of the same file with {@code runs} as its carried buffer. */
    public File<F> withCarried(List<BufferRun<F>> runs) {
      return new File<>(meta, smallestUserKey, largestUserKey, runs);
    }

    @Override
    public BufferEntry<F> clip(byte[] lo, byte[] hi) {
      if (!overlaps(lo, hi)) {
        return null;
      }
      byte[] from = UserKeyOrder.max(lo, smallestUserKey);
      byte[] to = UserKeyOrder.min(hi, largestUserKey);
      return new File<>(meta, from, to, BufferRun.clip(carried, from, to));
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof File<?> f && f.meta.equals(meta) && Arrays.equals(f.smallestUserKey, smallestUserKey)
          && Arrays.equals(f.largestUserKey, largestUserKey) && f.carried.equals(carried);
    }

    @Override
    public int hashCode() {
      return meta.hashCode() * 31 + Arrays.hashCode(smallestUserKey);
    }

    @Override
    public String toString() {
      return "#" + meta.number() + "[" + UserKeyOrder.printable(smallestUserKey) + ".."
          + UserKeyOrder.printable(largestUserKey) + "]" + (carried.isEmpty() ? "" : "+carried" + BufferRun.render(carried));
    }
  }

  /**
   * A removed marker: data for this range must come from the level itself (or a newer run).
   * The keys are copied in; callers must not modify the arrays they read back.
   *
   * <p>A <em>filter marker</em> ({@code filter} not null) is what the trim leaves of a cold part
   * of a buffer file: the file's filter instead of the file. It stops a walk only for the keys the
   * filter may hold, and lets the others go on to older runs, exactly as the file did (its filter
   * ruled them out, so the walk passed it); so dropping a cold part no longer hides the older
   * cached data under its range for keys it never held. Stopping for a key the file did not hold
   * (a false positive) is always right: the level answers. The filter lives in memory only: the
   * manifest records a plain marker, so after a reopen the marker stops every walk over its
   * range, which is right too (docs/compaction.md, "Filter markers"). A filter marker never
   * shadows an older file (every key of the older file that the filter rules out still reaches
   * it), so the garbage collection counts only plain markers as covering.
   *
   * @param filter the dropped file's filter, or null for a plain marker that stops every walk
   */
  record Removed<F extends TableFile>(byte[] smallestUserKey, byte[] largestUserKey, KeyFilter filter)
      implements BufferEntry<F> {
    public Removed {
      smallestUserKey = smallestUserKey.clone();
      largestUserKey = largestUserKey.clone();
      if (UserKeyOrder.compare(smallestUserKey, largestUserKey) > 0) {
        throw new IllegalArgumentException("removed marker's smallest key is above its largest");
      }
    }

    /** A plain marker: stops every walk over its range. */
    public Removed(byte[] smallestUserKey, byte[] largestUserKey) {
      this(smallestUserKey, largestUserKey, null);
    }

    /** Whether the marker stops every walk over its range (a plain marker), so it covers older files. */
    public boolean hidesAll() {
      return filter == null;
    }

    /** Whether a walk for {@code userKey}, which the marker covers, stops here. */
    public boolean stops(byte[] userKey) {
      return filter == null || filter.mayContain(userKey);
    }

    /** The same range as a plain marker (what the manifest keeps). */
    public Removed<F> plain() {
      return filter == null ? this : new Removed<>(smallestUserKey, largestUserKey);
    }

    @Override
    public BufferEntry<F> clip(byte[] lo, byte[] hi) {
      if (!overlaps(lo, hi)) {
        return null;
      }
      return new Removed<>(UserKeyOrder.max(lo, smallestUserKey), UserKeyOrder.min(hi, largestUserKey), filter);
    }

    /** Equal ranges, and the same filter object (or both plain). */
    @Override
    public boolean equals(Object o) {
      return o instanceof Removed<?> r && Arrays.equals(r.smallestUserKey, smallestUserKey)
          && Arrays.equals(r.largestUserKey, largestUserKey) && r.filter == filter;
    }

    @Override
    public int hashCode() {
      return Arrays.hashCode(smallestUserKey) * 31 + Arrays.hashCode(largestUserKey);
    }

    @Override
    public String toString() {
      return (filter == null ? "removed[" : "filtered[") + UserKeyOrder.printable(smallestUserKey) + ".."
          + UserKeyOrder.printable(largestUserKey) + "]";
    }
  }
}
