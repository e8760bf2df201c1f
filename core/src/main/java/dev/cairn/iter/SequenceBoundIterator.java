package dev.cairn.iter;

/**
 * An iterator whose entries are known to be no newer than a sequence (a table's, or a level's
 * largest): it tells a merge so ({@link InternalIterator#largestSequence()}), which lets a range
 * tombstone newer than all of them skip them wholesale. Otherwise it is the iterator it wraps.
 */
public final class SequenceBoundIterator extends ForwardingIterator {
  private final long largestSequence;

  public SequenceBoundIterator(InternalIterator inner, long largestSequence) {
    super(inner);
    this.largestSequence = largestSequence;
  }

  @Override
  public long largestSequence() {
    return largestSequence;
  }
}
