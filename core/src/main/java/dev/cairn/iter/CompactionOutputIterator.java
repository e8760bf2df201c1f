package dev.cairn.iter;

import dev.cairn.CompactionFilter;
import dev.cairn.key.InternalKey;
import dev.cairn.key.Merger;
import dev.cairn.key.RangeTombstone;
import dev.cairn.key.RangeTombstones;
import dev.cairn.key.ValueType;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.function.Predicate;

/**
 * Decides, while a flush or compaction merges its inputs, which internal entries the output keeps.
 * It wraps the merged input and yields the kept entries in the same order.
 *
 * <p><b>Snapshot stripes.</b> The read points that may read the output are the live snapshots
 * plus the latest state. Sort the snapshot sequences {@code s0 < s1 < ... < sk}; they cut the
 * sequence space into stripes {@code [0, s0], (s0, s1], ..., (sk, ∞)}. Snapshot {@code si} sees
 * stripes {@code 0..i}; the latest state sees them all. Within one stripe, every reader that sees
 * an older entry of a user key also sees the newest one of the stripe, which hides it. So the
 * output keeps, per user key, exactly the newest entry of each stripe and drops the others
 * ("shadowed"). With no snapshots that is the newest entry only. This is LevelDB's
 * {@code DoCompactionWork} rule (A) refined per snapshot, as RocksDB's compaction iterator does:
 * LevelDB keeps every entry above the oldest snapshot.
 *
 * <p><b>The user's filter</b> ({@link CompactionFilter}), when there is one, is asked about each user
 * key's newest kept entry when it is a value newer than every snapshot (no snapshot sees it, so
 * no snapshot's view changes), before the tombstone rule: a value it removes becomes a tombstone
 * with the value's sequence, hiding the key's older entries as a delete would, and goes with
 * them at the bottom.
 *
 * <p><b>Merge operands.</b> An operand does not hide the entries below it: the newest entry of a
 * stripe that is an operand keeps the stripe open. The operands at the top of a stripe are merged
 * ({@link Merger}) onto the stripe's first value or tombstone below them into one value with the
 * newest operand's sequence (every reader that sees one of them sees them all and that base); in
 * a stripe with no base, neighbouring operands are combined by the operator's partial merge where
 * it allows and kept as operands, unless the output is bottommost for the key and the stripe is
 * its oldest: then nothing lies below, and they are merged onto nothing into a value (RocksDB's
 * {@code MergeHelper}). Operands never merge across a snapshot: that snapshot reads the older
 * stripes alone.
 *
 * <p><b>Range tombstones</b> ({@link #withRangeTombstones}): an entry a tombstone of the inputs
 * covers is dropped when the two are in the same stripe (every reader that sees the entry sees
 * the tombstone), and acts as a tombstone for the operands above it there. The inputs' range
 * tombstones go to the output ({@link #keptRangeTombstones()}), but at the bottom those in the
 * oldest stripe: every reader sees them, and everything they covered was in this merge and is
 * gone.
 *
 * <p><b>Tombstones at the bottom.</b> A tombstone only matters if something older than it for the
 * same user key would otherwise show through. When the output is bottommost for a key (no older
 * data for it exists outside this merge), the oldest kept entries of the key, if they are
 * tombstones, hide nothing: they are dropped, and so is every tombstone right above them. A kept
 * value with tombstones above it keeps those tombstones (a snapshot between them needs them).
 * This includes LevelDB's rule (a tombstone at or below the smallest snapshot at the base level is
 * dropped) and also drops newer tombstones that no snapshot can tell apart from absence.
 *
 * <p>Only {@link #seekToFirst()} and {@link #next()} are supported; the other positioning methods
 * throw {@link UnsupportedOperationException} (a compaction reads its inputs once, front to back).
 *
 * <p>Implementation: the entries of one user key are read as a group; the kept ones (one per
 * stripe, so at most {@code snapshots + 2}, plus the operands no partial merge combined) are
 * buffered and then yielded. Buffered arrays are
 * those the input returned, which the {@link InternalIterator} contract keeps unchanged.
 */
public final class CompactionOutputIterator implements InternalIterator {
  private final InternalIterator input;
  /** Ascending, distinct stripe upper bounds (snapshot sequences). */
  private final long[] stripeBounds;
  /** Given a user key, whether no older data for it exists outside this merge; null: never. */
  private final Predicate<byte[]> bottommostFor;

  /** The expiry and the user's filter, asked about each key's newest value. */
  private final NewestValueFilter filters;
  /** The inputs' range tombstones. */
  private RangeTombstones rangeTombstones = RangeTombstones.EMPTY;
  /** Whether the output is bottommost for every key (the boolean constructors). */
  private final boolean bottommostForAll;

  private final List<byte[]> keptKeys = new ArrayList<>();
  private final List<byte[]> keptValues = new ArrayList<>();
  /** The current stripe's operands not yet merged or kept. */
  private final PendingOperands pending;
  private int position;

  private long droppedEntries;
  private long droppedTombstones;
  private long coveredEntries;
  private long droppedRangeTombstones;

  /**
   * @param merged the merged input in internal-key order; owned (closed) by this iterator
   * @param snapshotsAscending sequences of the live snapshots, ascending (duplicates allowed)
   * @param smallestSnapshotOrLastSequence LevelDB's {@code smallest_snapshot}: the oldest live
   *     snapshot, or the last sequence when there is none. Treated as one more read point, which
   *     is always safe (it can only keep more)
   * @param dropTombstonesAtBottom whether the output is bottommost for every key in the merge, so
   *     that tombstones hiding nothing may be dropped
   */
  public CompactionOutputIterator(
      InternalIterator merged,
      long[] snapshotsAscending,
      long smallestSnapshotOrLastSequence,
      boolean dropTombstonesAtBottom) {
    this(
        merged,
        snapshotsAscending,
        smallestSnapshotOrLastSequence,
        dropTombstonesAtBottom ? BOTTOMMOST_FOR_ALL : null);
  }

  /**
   * Like the main constructor, but decides bottommost-ness per user key (LevelDB's {@code
   * IsBaseLevelForKey}): {@code bottommostForUserKey} returns true if no level below the output
   * holds the key. Null means never bottommost.
   */
  public CompactionOutputIterator(
      InternalIterator merged,
      long[] snapshotsAscending,
      long smallestSnapshotOrLastSequence,
      Predicate<byte[]> bottommostForUserKey) {
    this(merged, snapshotsAscending, smallestSnapshotOrLastSequence, bottommostForUserKey, null, null, null,
        Merger.NONE);
  }

  /**
   * Like the main constructor, and asks {@code filter} (null for none) about each user key's
   * newest value that no snapshot sees, before the tombstone rule runs, so that a value it
   * removes becomes a tombstone that the rule may drop at the bottom.
   */
  public CompactionOutputIterator(
      InternalIterator merged,
      long[] snapshotsAscending,
      long smallestSnapshotOrLastSequence,
      boolean dropTombstonesAtBottom,
      CompactionFilter filter,
      CompactionFilter.Context context) {
    this(merged, snapshotsAscending, smallestSnapshotOrLastSequence, dropTombstonesAtBottom, null, filter, context,
        Merger.NONE);
  }

  /**
   * As the constructor above, and removes the newest values that {@code expired} says have
   * expired (null: none), before the user's filter is asked. An expired value already reads as
   * absent, so its removal changes no reader's view: it is counted with the filter's removals but
   * not in {@link #smallestFilteredSequence()}. Merge operands are merged by {@code merger}.
   */
  public CompactionOutputIterator(
      InternalIterator merged,
      long[] snapshotsAscending,
      long smallestSnapshotOrLastSequence,
      boolean dropTombstonesAtBottom,
      Predicate<byte[]> expired,
      CompactionFilter filter,
      CompactionFilter.Context context,
      Merger merger) {
    this(merged, snapshotsAscending, smallestSnapshotOrLastSequence,
        dropTombstonesAtBottom ? BOTTOMMOST_FOR_ALL : null, expired, filter, context, merger);
  }

  private static final Predicate<byte[]> BOTTOMMOST_FOR_ALL = userKey -> true;

  /**
   * Applies the inputs' range tombstones (set before {@link #seekToFirst()}): covered entries in
   * a tombstone's stripe are dropped, and the tombstones are kept for the output, but at the
   * bottom those every reader sees.
   */
  public CompactionOutputIterator withRangeTombstones(RangeTombstones inputs) {
    this.rangeTombstones = inputs;
    return this;
  }

  /** The range tombstones the output keeps: the inputs', but at the bottom those in the oldest stripe. */
  public RangeTombstones keptRangeTombstones() {
    if (!bottommostForAll || rangeTombstones.isEmpty()) {
      return rangeTombstones;
    }
    List<RangeTombstone> kept = new ArrayList<>();
    for (RangeTombstone t : rangeTombstones.all()) {
      if (stripeOf(t.sequence()) > 0) {
        kept.add(t);
      }
    }
    droppedRangeTombstones = rangeTombstones.size() - kept.size();
    return RangeTombstones.of(kept);
  }

  /** Range tombstones {@link #keptRangeTombstones()} left out. */
  public long droppedRangeTombstones() {
    return droppedRangeTombstones;
  }

  /** Entries dropped because a range tombstone in their stripe covered them (counted in the drops too). */
  public long coveredEntries() {
    return coveredEntries;
  }

  private CompactionOutputIterator(
      InternalIterator merged,
      long[] snapshotsAscending,
      long smallestSnapshotOrLastSequence,
      Predicate<byte[]> bottommostForUserKey,
      Predicate<byte[]> expired,
      CompactionFilter filter,
      CompactionFilter.Context context,
      Merger merger) {
    this.pending = new PendingOperands(merger);
    this.bottommostForAll = bottommostForUserKey == BOTTOMMOST_FOR_ALL;
    this.filters = new NewestValueFilter(expired, filter, context, Arrays.stream(snapshotsAscending).max().orElse(-1));
    this.input = merged;
    long[] bounds = Arrays.copyOf(snapshotsAscending, snapshotsAscending.length + 1);
    bounds[snapshotsAscending.length] = smallestSnapshotOrLastSequence;
    this.stripeBounds = Arrays.stream(bounds).sorted().distinct().toArray();
    this.bottommostFor = bottommostForUserKey;
    this.position = 0;
  }

  @Override
  public boolean isValid() {
    return position < keptKeys.size();
  }

  @Override
  public void seekToFirst() {
    input.seekToFirst();
    keptKeys.clear();
    keptValues.clear();
    position = 0;
    fillFromNextUserKeys();
  }

  /** Not supported: a compaction reads its input once, from the start. */
  @Override
  public void seek(byte[] internalKeyTarget) {
    throw new UnsupportedOperationException("compaction filter iterates from the start only");
  }

  @Override
  public void seekToLast() {
    throw new UnsupportedOperationException("compaction filter iterates from the start only");
  }

  @Override
  public void seekForPrev(byte[] internalKeyTarget) {
    throw new UnsupportedOperationException("compaction filter iterates from the start only");
  }

  @Override
  public void prev() {
    throw new UnsupportedOperationException("compaction filter iterates forward only");
  }

  @Override
  public void next() {
    requireValid();
    position++;
    if (position == keptKeys.size()) {
      keptKeys.clear();
      keptValues.clear();
      position = 0;
      fillFromNextUserKeys();
    }
  }

  @Override
  public byte[] key() {
    requireValid();
    return keptKeys.get(position);
  }

  @Override
  public byte[] value() {
    requireValid();
    return keptValues.get(position);
  }

  @Override
  public void close() {
    keptKeys.clear();
    keptValues.clear();
    position = 0;
    input.close();
  }

  /** Entries of the input not yielded: shadowed entries plus dropped tombstones. */
  public long droppedEntries() {
    return droppedEntries;
  }

  /** Values the user's filter turned into tombstones (counted again in the drops if the tombstone went too). */
  public long removedByFilter() {
    return filters.removed();
  }

  /** Values the user's filter replaced. */
  public long changedByFilter() {
    return filters.changed();
  }

  /**
   * The smallest sequence of a value the user's filter removed or replaced, {@code Long.MAX_VALUE}
   * if none: a snapshot at or above it, taken after this iterator was made, may see the change.
   */
  public long smallestFilteredSequence() {
    return filters.smallestFilteredSequence();
  }

  /** Merge operands merged into a value or combined with a neighbour by a partial merge. */
  public long mergedOperands() {
    return pending.merged();
  }

  /** Of {@link #droppedEntries()}, the tombstones dropped because they hid nothing at the bottom. */
  public long droppedTombstones() {
    return droppedTombstones;
  }

  /** Reads user-key groups until one keeps at least one entry or the input ends. */
  private void fillFromNextUserKeys() {
    while (keptKeys.isEmpty() && input.isValid()) {
      readUserKeyGroup();
    }
  }

  /** Consumes all input entries of the current user key, buffering those the output keeps. */
  private void readUserKeyGroup() {
    byte[] first = input.key();
    byte[] userKey = null; // made when an operand needs it
    int previousStripe = -1;
    boolean stripeDecided = false; // the stripe's value or tombstone (or its merge) is kept
    int entries = 0;
    do {
      byte[] ikey = input.key();
      ValueType type = InternalKey.type(ikey);
      if (type == null) {
        throw new IllegalStateException(
            "compaction input yielded a key of unknown type (its source must report corruption): "
                + InternalKey.describe(ikey));
      }
      entries++;
      int stripe = stripeOf(InternalKey.sequence(ikey));
      // Entries arrive newest first, so stripes never increase within a user key.
      assert previousStripe == -1 || stripe <= previousStripe : "input out of order";
      if (stripe != previousStripe) {
        if (!pending.isEmpty()) {
          pending.keepAsOperands(userKey, keptKeys, keptValues); // a snapshot lies between them and anything older
        }
        previousStripe = stripe;
        stripeDecided = false;
      }
      if (!stripeDecided && !rangeTombstones.isEmpty() && coveredInStripe(first, ikey, stripe)) {
        // Deleted for every reader that sees it, as are the older entries of its stripe.
        coveredEntries++;
        if (!pending.isEmpty()) {
          pending.mergeOnto(userKey, null, keptKeys, keptValues);
        }
        stripeDecided = true;
      }
      if (!stripeDecided) {
        // Shadowed otherwise, by the newer entry of the same stripe.
        if (type == ValueType.MERGE) {
          userKey = userKey != null ? userKey : InternalKey.userKey(first);
          pending.add(ikey, input.value());
        } else if (pending.isEmpty()) {
          keptKeys.add(ikey);
          keptValues.add(input.value());
          stripeDecided = true;
        } else {
          pending.mergeOnto(userKey, type == ValueType.VALUE ? input.value() : null, keptKeys, keptValues);
          stripeDecided = true;
        }
      }
      input.next();
    } while (input.isValid() && InternalKey.compareUserKeys(input.key(), first) == 0);
    if (!pending.isEmpty()) {
      // The key's oldest operands here: merged onto nothing where nothing older exists.
      if (bottommostFor != null && bottommostFor.test(userKey)) {
        pending.mergeOnto(userKey, null, keptKeys, keptValues);
      } else {
        pending.keepAsOperands(userKey, keptKeys, keptValues);
      }
    }
    droppedEntries += entries - keptKeys.size();

    if (filters.isActive() && !keptKeys.isEmpty()) { // a range tombstone may have covered every entry
      filters.apply(keptKeys, keptValues);
    }
    if (bottommostFor != null && endsWithTombstone()
        && bottommostFor.test(InternalKey.userKey(first))) {
      while (endsWithTombstone()) {
        keptKeys.remove(keptKeys.size() - 1);
        keptValues.remove(keptValues.size() - 1);
        droppedEntries++;
        droppedTombstones++;
      }
    }
  }

  private boolean endsWithTombstone() {
    return !keptKeys.isEmpty()
        && InternalKey.type(keptKeys.get(keptKeys.size() - 1)) == ValueType.DELETION;
  }

  /** Whether a range tombstone of the inputs in {@code stripe} covers {@code ikey} (of user key {@code first}'s). */
  private boolean coveredInStripe(byte[] first, byte[] ikey, int stripe) {
    long stripeTop = stripe < stripeBounds.length ? stripeBounds[stripe] : Long.MAX_VALUE;
    return rangeTombstones.covers(InternalKey.userKey(first), InternalKey.sequence(ikey), stripeTop);
  }

  /** The stripe of a sequence: the number of snapshot bounds strictly below it. */
  private int stripeOf(long sequence) {
    int i = Arrays.binarySearch(stripeBounds, sequence);
    return i >= 0 ? i : -i - 1;
  }

  private void requireValid() {
    if (!isValid()) {
      throw new NoSuchElementException("compaction filter is not positioned on an entry");
    }
  }
}
