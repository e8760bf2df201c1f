package dev.cairn.model;

import java.util.Arrays;

/**
 * What compaction planning knows about one table file: identity, user-key range, size and the
 * figures the cache-aware policies need. No path, no handle: executing a plan is core's job.
 *
 * @param id the file number, unique within a database and never reused
 * @param smallestKey the smallest user key in the file (inclusive); compared unsigned bytewise
 * @param largestKey the largest user key in the file (inclusive)
 * @param sizeBytes the file's size on disk; for an appendable table, all blocks, live or not
 * @param entries the number of entries (puts and tombstones) in the file
 * @param validBytes the bytes still reachable from the newest footer; equals {@code sizeBytes}
 *     for a table written once. BlockDB's valid ratio is {@code validBytes / sizeBytes}.
 * @param cachedFraction the fraction of the file's blocks held in the block cache, in [0, 1];
 *     LSbM trims a buffer file whose fraction falls below a threshold
 * @param creationSequence a counter that grows with every file the database creates, so files
 *     can be ordered by age independent of their contents (LSbM's buffer order, DLC's "already
 *     produced by a bursty compaction")
 * @param largestSequence the largest sequence number of any entry in the file; L0 is ordered
 *     newest first by it
 */
public record FileDescriptor(
    long id,
    byte[] smallestKey,
    byte[] largestKey,
    long sizeBytes,
    long entries,
    long validBytes,
    double cachedFraction,
    long creationSequence,
    long largestSequence) {

  public FileDescriptor {
    if (id < 0) {
      throw new IllegalArgumentException("file id must be >= 0: " + id);
    }
    if (smallestKey == null || largestKey == null) {
      throw new IllegalArgumentException("file " + id + ": key bounds must not be null");
    }
    if (UserKeyOrder.compare(smallestKey, largestKey) > 0) {
      throw new IllegalArgumentException(
          "file " + id + ": smallest key " + UserKeyOrder.printable(smallestKey)
              + " > largest key " + UserKeyOrder.printable(largestKey));
    }
    if (sizeBytes < 0 || entries < 0) {
      throw new IllegalArgumentException(
          "file " + id + ": negative size " + sizeBytes + " or entries " + entries);
    }
    if (validBytes < 0 || validBytes > sizeBytes) {
      throw new IllegalArgumentException(
          "file " + id + ": valid bytes " + validBytes + " outside [0, " + sizeBytes + "]");
    }
    // The negated form also rejects NaN.
    if (!(cachedFraction >= 0.0 && cachedFraction <= 1.0)) {
      throw new IllegalArgumentException(
          "file " + id + ": cached fraction " + cachedFraction + " outside [0, 1]");
    }
    if (creationSequence < 0 || largestSequence < 0) {
      throw new IllegalArgumentException("file " + id + ": negative sequence");
    }
    smallestKey = smallestKey.clone();
    largestKey = largestKey.clone();
  }

  /**
   * A file as a freshly written table: all bytes valid, nothing cached, creation and largest
   * sequence both {@code sequence}. Handy for tests and for core's first cut.
   */
  public static FileDescriptor of(
      long id, byte[] smallestKey, byte[] largestKey, long sizeBytes, long sequence) {
    return new FileDescriptor(
        id, smallestKey, largestKey, sizeBytes, 0, sizeBytes, 0.0, sequence, sequence);
  }

  @Override
  public byte[] smallestKey() {
    return smallestKey.clone();
  }

  @Override
  public byte[] largestKey() {
    return largestKey.clone();
  }

  public KeyRange range() {
    return new KeyRange(smallestKey, largestKey);
  }

  /**
   * Whether the file holds any user key in {@code [smallest, largest]}; a null bound is
   * unbounded on that side.
   */
  public boolean overlaps(byte[] smallest, byte[] largest) {
    return (smallest == null || UserKeyOrder.compare(largestKey, smallest) >= 0)
        && (largest == null || UserKeyOrder.compare(smallestKey, largest) <= 0);
  }

  /** Whether every key of this file is strictly below every key of {@code next}. */
  public boolean isBefore(FileDescriptor next) {
    return UserKeyOrder.compare(largestKey, next.smallestKey) < 0;
  }

  /** {@code compare(largestKey, key)}: negative if the whole file sorts before {@code key}. */
  public int compareLargestTo(byte[] key) {
    return UserKeyOrder.compare(largestKey, key);
  }

  /** {@code compare(smallestKey, key)}. */
  public int compareSmallestTo(byte[] key) {
    return UserKeyOrder.compare(smallestKey, key);
  }

  byte[] smallestKeyRef() {
    return smallestKey;
  }

  byte[] largestKeyRef() {
    return largestKey;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof FileDescriptor f
        && id == f.id
        && Arrays.equals(smallestKey, f.smallestKey)
        && Arrays.equals(largestKey, f.largestKey)
        && sizeBytes == f.sizeBytes
        && entries == f.entries
        && validBytes == f.validBytes
        && Double.compare(cachedFraction, f.cachedFraction) == 0
        && creationSequence == f.creationSequence
        && largestSequence == f.largestSequence;
  }

  @Override
  public int hashCode() {
    return Long.hashCode(id) * 31 + Arrays.hashCode(smallestKey);
  }

  @Override
  public String toString() {
    return id + "[" + UserKeyOrder.printable(smallestKey) + ".."
        + UserKeyOrder.printable(largestKey) + " " + sizeBytes + "B]";
  }
}
