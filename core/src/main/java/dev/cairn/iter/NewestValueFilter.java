package dev.cairn.iter;

import dev.cairn.CairnException;
import dev.cairn.CompactionFilter;
import dev.cairn.key.InternalKey;
import dev.cairn.key.UserKeys;
import dev.cairn.key.ValueType;
import java.util.List;
import java.util.function.Predicate;

/**
 * What a compaction asks about a user key's newest kept value when no snapshot sees it ({@link
 * CompactionOutputIterator}): whether it has expired (a TTL database's), else the user's {@link
 * CompactionFilter}. A removal becomes a tombstone with the value's sequence, which keeps older
 * values hidden; a change replaces the value and keeps its sequence.
 */
final class NewestValueFilter {
  private static final byte[] EMPTY = new byte[0];

  /** Whether a stored value has expired; null: none expire. */
  private final Predicate<byte[]> expired;
  /** The user's filter and where this compaction writes; null: none. */
  private final CompactionFilter userFilter;
  private final CompactionFilter.Context context;
  /** Entries newer than this no snapshot sees. */
  private final long newestSnapshot;

  private long removed;
  private long changed;
  private long smallestFilteredSequence = Long.MAX_VALUE;

  NewestValueFilter(Predicate<byte[]> expired, CompactionFilter userFilter, CompactionFilter.Context context,
      long newestSnapshot) {
    this.expired = expired;
    this.userFilter = userFilter;
    this.context = context;
    this.newestSnapshot = newestSnapshot;
  }

  /** Whether there is anything to ask. */
  boolean isActive() {
    return userFilter != null || expired != null;
  }

  long removed() {
    return removed;
  }

  long changed() {
    return changed;
  }

  /** The smallest sequence of a value the user's filter removed or changed, {@code Long.MAX_VALUE} if none. */
  long smallestFilteredSequence() {
    return smallestFilteredSequence;
  }

  /** Applies to entry 0 of {@code keptKeys}/{@code keptValues}, a user key's newest kept entry. */
  void apply(List<byte[]> keptKeys, List<byte[]> keptValues) {
    byte[] newest = keptKeys.get(0);
    if (InternalKey.type(newest) != ValueType.VALUE || InternalKey.sequence(newest) <= newestSnapshot) {
      return;
    }
    byte[] userKey = InternalKey.userKey(newest);
    if (expired != null && expired.test(keptValues.get(0))) {
      keptKeys.set(0, InternalKey.encode(userKey, InternalKey.sequence(newest), ValueType.DELETION));
      keptValues.set(0, EMPTY);
      removed++; // already read as absent: no reader's view changes, so no filtered sequence
      return;
    }
    if (userFilter == null) {
      return;
    }
    CompactionFilter.Decision decision;
    try {
      decision = userFilter.filter(context, userKey, keptValues.get(0));
    } catch (RuntimeException e) {
      throw new CairnException("compaction filter " + userFilter.getClass().getName() + " failed on key "
          + UserKeys.printable(userKey) + ": " + e, e);
    }
    if (decision == null) {
      throw new CairnException("compaction filter " + userFilter.getClass().getName()
          + " returned no decision for key " + UserKeys.printable(userKey));
    }
    if (decision != CompactionFilter.Decision.KEEP) {
      smallestFilteredSequence = Math.min(smallestFilteredSequence, InternalKey.sequence(newest));
    }
    if (decision == CompactionFilter.Decision.REMOVE) {
      keptKeys.set(0, InternalKey.encode(userKey, InternalKey.sequence(newest), ValueType.DELETION));
      keptValues.set(0, EMPTY);
      removed++;
    } else if (decision != CompactionFilter.Decision.KEEP) {
      keptValues.set(0, decision.newValue());
      changed++;
    }
  }
}
