package dev.cairn.model;

import java.util.Arrays;
import java.util.Collection;

/**
 * A closed range of user keys, {@code [smallest, largest]}, both bounds inclusive and non-null.
 *
 * <p>The arrays are copied on the way in and out: a plan or shape handed to another thread can
 * never see a key change under it.
 */
public record KeyRange(byte[] smallest, byte[] largest) {

  public KeyRange {
    if (smallest == null || largest == null) {
      throw new IllegalArgumentException("key range bounds must not be null");
    }
    if (UserKeyOrder.compare(smallest, largest) > 0) {
      throw new IllegalArgumentException(
          "key range smallest " + UserKeyOrder.printable(smallest) + " > largest "
              + UserKeyOrder.printable(largest));
    }
    smallest = smallest.clone();
    largest = largest.clone();
  }

  /** The smallest range that covers every file; {@code files} must not be empty. */
  public static KeyRange spanning(Collection<FileDescriptor> files) {
    if (files.isEmpty()) {
      throw new IllegalArgumentException("cannot span an empty set of files");
    }
    byte[] lo = null;
    byte[] hi = null;
    for (FileDescriptor f : files) {
      lo = lo == null ? f.smallestKeyRef() : UserKeyOrder.min(lo, f.smallestKeyRef());
      hi = hi == null ? f.largestKeyRef() : UserKeyOrder.max(hi, f.largestKeyRef());
    }
    return new KeyRange(lo, hi);
  }

  /** The smallest range covering both. */
  public KeyRange span(KeyRange other) {
    return new KeyRange(
        UserKeyOrder.min(smallest, other.smallest), UserKeyOrder.max(largest, other.largest));
  }

  public boolean overlaps(FileDescriptor file) {
    return file.overlaps(smallest, largest);
  }

  public boolean overlaps(KeyRange other) {
    return UserKeyOrder.compare(smallest, other.largest) <= 0
        && UserKeyOrder.compare(other.smallest, largest) <= 0;
  }

  @Override
  public byte[] smallest() {
    return smallest.clone();
  }

  @Override
  public byte[] largest() {
    return largest.clone();
  }

  /** The internal arrays, for readers in this module that promise not to modify them. */
  byte[] smallestRef() {
    return smallest;
  }

  byte[] largestRef() {
    return largest;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof KeyRange r
        && Arrays.equals(smallest, r.smallest)
        && Arrays.equals(largest, r.largest);
  }

  @Override
  public int hashCode() {
    return 31 * Arrays.hashCode(smallest) + Arrays.hashCode(largest);
  }

  @Override
  public String toString() {
    return UserKeyOrder.printable(smallest) + ".." + UserKeyOrder.printable(largest);
  }
}
