package dev.cairn.key;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.TreeSet;

/**
 * An immutable set of range tombstones that answers "which is the newest tombstone a reader at
 * snapshot {@code s} sees over key {@code k}" with one binary search. The tombstones, which may
 * overlap, are cut at every start and end into fragments that do not (RocksDB's fragmented range
 * tombstone list); each fragment keeps the sequences of the tombstones over it, newest first.
 */
public final class RangeTombstones {
  /** {@link #coverSequence}: no tombstone covers the key. Below every sequence. */
  public static final long NONE = -1;

  public static final RangeTombstones EMPTY = new RangeTombstones(List.of());

  /** In (from, sequence descending) order: a table's range-deletion block order. */
  private static final Comparator<RangeTombstone> ORDER = Comparator.comparing(RangeTombstone::from, UserKeys.COMPARATOR)
      .thenComparing(Comparator.comparingLong(RangeTombstone::sequence).reversed())
      .thenComparing(RangeTombstone::to, UserKeys.COMPARATOR);

  private final List<RangeTombstone> all;
  private final byte[][] starts;
  private final byte[][] ends;
  private final long[][] sequences;

  private RangeTombstones(List<RangeTombstone> sorted) {
    this.all = sorted;
    List<byte[]> s = new ArrayList<>();
    List<byte[]> e = new ArrayList<>();
    List<long[]> q = new ArrayList<>();
    TreeSet<byte[]> bounds = new TreeSet<>(UserKeys.COMPARATOR);
    for (RangeTombstone t : sorted) {
      bounds.add(t.from());
      bounds.add(t.to());
    }
    List<RangeTombstone> active = new ArrayList<>();
    int next = 0;
    byte[] previous = null;
    for (byte[] b : bounds) {
      if (previous != null && !active.isEmpty()) {
        s.add(previous);
        e.add(b);
        q.add(active.stream().mapToLong(RangeTombstone::sequence).map(x -> -x).sorted().map(x -> -x).toArray());
      }
      active.removeIf(t -> UserKeys.compare(t.to(), b) <= 0);
      while (next < sorted.size() && UserKeys.compare(sorted.get(next).from(), b) == 0) {
        active.add(sorted.get(next++));
      }
      previous = b;
    }
    this.starts = s.toArray(new byte[0][]);
    this.ends = e.toArray(new byte[0][]);
    this.sequences = q.toArray(new long[0][]);
  }

  public static RangeTombstones of(Collection<RangeTombstone> tombstones) {
    if (tombstones.isEmpty()) {
      return EMPTY;
    }
    List<RangeTombstone> sorted = new ArrayList<>(tombstones);
    sorted.sort(ORDER);
    return new RangeTombstones(List.copyOf(sorted));
  }

  /** Every tombstone of {@code sets} in one set. */
  public static RangeTombstones union(Collection<RangeTombstones> sets) {
    List<RangeTombstone> all = new ArrayList<>();
    sets.forEach(t -> all.addAll(t.all));
    return of(all);
  }

  public boolean isEmpty() {
    return all.isEmpty();
  }

  public int size() {
    return all.size();
  }

  /** The tombstones as given, in (from, sequence descending) order. */
  public List<RangeTombstone> all() {
    return all;
  }

  /**
   * The largest sequence at or below {@code snapshot} of a tombstone over {@code userKey}, or
   * {@link #NONE}: an entry of the key with a smaller sequence reads as deleted at the snapshot.
   */
  public long coverSequence(byte[] userKey, long snapshot) {
    return coverSequence(userKey, userKey.length, snapshot);
  }

  /** {@link #coverSequence(byte[], long)} for the user key that is the first {@code length} bytes of {@code key}. */
  public long coverSequence(byte[] key, int length, long snapshot) {
    int f = fragmentOf(key, length);
    if (f >= 0) {
      for (long seq : sequences[f]) {
        if (seq <= snapshot) {
          return seq;
        }
      }
    }
    return NONE;
  }

  /**
   * The end of the fragment over the user key that is the first {@code length} bytes of {@code
   * key} (every key from it to there has the same tombstones over it), or null when none covers it.
   */
  public byte[] fragmentEnd(byte[] key, int length) {
    int f = fragmentOf(key, length);
    return f < 0 ? null : ends[f];
  }

  /**
   * The start of the fragment over the user key that is the first {@code length} bytes of {@code
   * key} (every key from there to it has the same tombstones over it), or null when none covers it.
   */
  public byte[] fragmentStart(byte[] key, int length) {
    int f = fragmentOf(key, length);
    return f < 0 ? null : starts[f];
  }

  /** The index of the fragment holding the user key that is the first {@code length} bytes of {@code key}, or -1. */
  private int fragmentOf(byte[] key, int length) {
    int lo = 0;
    int hi = starts.length - 1;
    while (lo <= hi) {
      int mid = (lo + hi) >>> 1;
      if (Arrays.compareUnsigned(key, 0, length, starts[mid], 0, starts[mid].length) < 0) {
        hi = mid - 1;
      } else if (Arrays.compareUnsigned(key, 0, length, ends[mid], 0, ends[mid].length) >= 0) {
        lo = mid + 1;
      } else {
        return mid;
      }
    }
    return -1;
  }

  /**
   * Whether every user key in [{@code lo}, {@code hi}] (both inclusive) lies under a tombstone
   * whose sequence is above {@code above} and at most {@code atMost}: the fragments over the span
   * follow one another without a gap and each holds such a sequence.
   */
  public boolean coversAll(byte[] lo, byte[] hi, long above, long atMost) {
    int f = fragmentOf(lo, lo.length);
    if (f < 0) {
      return false;
    }
    while (true) {
      if (!holdsSequenceIn(sequences[f], above, atMost)) {
        return false;
      }
      if (UserKeys.compare(hi, ends[f]) < 0) {
        return true;
      }
      if (f + 1 == starts.length || !Arrays.equals(starts[f + 1], ends[f])) {
        return false; // a gap: the key ends[f] lies under no tombstone
      }
      f++;
    }
  }

  private static boolean holdsSequenceIn(long[] newestFirst, long above, long atMost) {
    for (long seq : newestFirst) {
      if (seq <= atMost) {
        return seq > above;
      }
    }
    return false;
  }

  /** Whether an entry of {@code userKey} with {@code sequence} reads as deleted at {@code snapshot}. */
  public boolean covers(byte[] userKey, long sequence, long snapshot) {
    return sequence < coverSequence(userKey, snapshot);
  }

  /** Whether the entry {@code internalKey} reads as deleted at {@code snapshot}. */
  public boolean coversEntry(byte[] internalKey, long snapshot) {
    return !isEmpty() && InternalKey.sequence(internalKey)
        < coverSequence(internalKey, InternalKey.userKeyLength(internalKey), snapshot);
  }

  @Override
  public String toString() {
    return all.toString() + " as " + starts.length + " fragments"
        + (starts.length == 0 ? "" : " from " + UserKeys.printable(starts[0]) + " to "
            + UserKeys.printable(ends[ends.length - 1]) + " " + Arrays.toString(sequences[0]));
  }
}
