package dev.cairn.version;

import java.util.List;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * One slot per file of a version's levels for something the version keeps open on its files'
 * behalf until it is released: the table handles its point reads use (docs/architecture.md, "A
 * version keeps its tables open"). A slot is filled at most once, by compare-and-set, by any
 * reader holding a reference to the version; the version's release closes what the slots hold
 * and seals every slot, so a resource offered after that is refused and stays its offerer's to
 * close. Sealing is what makes a late offer safe without a lock: an offer either lands before the
 * slot is sealed (and the release closes it) or is refused.
 *
 * <p>Thread-safe.
 */
final class KeptPerFile {
  private static final AutoCloseable SEALED = () -> { };

  /** Where each level's slots start; the last entry is the total. */
  private final int[] levelStart;
  private final AtomicReferenceArray<AutoCloseable> slots;

  KeptPerFile(List<List<FileMetaData>> levels) {
    levelStart = new int[levels.size() + 1];
    for (int level = 0; level < levels.size(); level++) {
      levelStart[level + 1] = levelStart[level] + levels.get(level).size();
    }
    slots = new AtomicReferenceArray<>(levelStart[levels.size()]);
  }

  /** Files with a slot: every file of every level. */
  int size() {
    return slots.length();
  }

  /** What the slot of the {@code index}th file of {@code level} keeps, or null (none, or sealed). */
  AutoCloseable get(int level, int index) {
    AutoCloseable kept = slots.get(slot(level, index));
    return kept == SEALED ? null : kept;
  }

  /**
   * Keeps {@code resource} in the slot of the {@code index}th file of {@code level} if the slot
   * is empty; returns whether it did. When it did not (the slot is filled or sealed), the caller
   * still owns {@code resource}.
   */
  boolean offer(int level, int index, AutoCloseable resource) {
    return slots.compareAndSet(slot(level, index), null, resource);
  }

  /**
   * Seals every slot and closes what they kept. Idempotent: a second call finds them sealed.
   * The first failure to close is rethrown after the rest are closed.
   */
  void sealAndClose() {
    RuntimeException failure = null;
    for (int i = 0; i < slots.length(); i++) {
      AutoCloseable kept = slots.getAndSet(i, SEALED);
      if (kept == null || kept == SEALED) {
        continue;
      }
      try {
        kept.close();
      } catch (Exception e) {
        if (failure == null) {
          failure = e instanceof RuntimeException r ? r : new IllegalStateException("closing a version's kept file", e);
        } else {
          failure.addSuppressed(e);
        }
      }
    }
    if (failure != null) {
      throw failure;
    }
  }

  private int slot(int level, int index) {
    int slot = levelStart[level] + index;
    if (index < 0 || slot >= levelStart[level + 1]) {
      throw new IndexOutOfBoundsException("file " + index + " of level " + level + " ("
          + (levelStart[level + 1] - levelStart[level]) + " files)");
    }
    return slot;
  }
}
