package dev.cairn.model;

/**
 * A set membership test over user keys with no false negatives: a table file's Bloom filter, kept
 * by a filter marker ({@link BufferEntry.Removed#filter}) after the file itself has left the
 * buffer.
 */
@FunctionalInterface
public interface KeyFilter {
  /** False only when {@code userKey} is certainly not in the set. */
  boolean mayContain(byte[] userKey);
}
