package dev.cairn.db.base;

import dev.cairn.util.ThreadStripes;
import dev.cairn.version.Version;
import dev.cairn.version.VersionSet;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * References to the current version kept for point reads, one per thread stripe
 * ({@link ThreadStripes}), so that a point read takes no reference of its own (RocksDB's
 * thread-local super version, here per stripe rather than per thread). Without it every get
 * incremented and decremented the current version's reference count, one atomic that every
 * reader thread writes, and allocated a read state to release it. Measured on two cores
 * (docs/results/issue21 {@code s7-jmh/}, {@code VersionPinBench}) the shared count cost about what
 * the stripe's swap and compare-and-set cost (62 against 58 ns a pin, both threads pinning
 * nonstop); what the stripe removes there is the 64 bytes a get allocated. A count every reader
 * writes is what stops scaling as reader cores grow, which is why RocksDB caches per thread.
 *
 * <p><b>The slot protocol.</b> A stripe's slot holds nothing, a version together with one
 * reference the slot owns, or {@link #IN_USE}. A read swaps {@code IN_USE} in and owns whatever
 * reference came out:
 *
 * <ul>
 *   <li>a version that is still {@link VersionSet#current()} is used as is (its reference now the
 *       read's);
 *   <li>a version no longer current is unreferenced, and the read references the current one,
 *       as does a read that found nothing or {@code IN_USE} (another thread of the same stripe
 *       reading);
 *   <li>when the read ends it puts its version back with a compare-and-set from {@code IN_USE};
 *       if the slot changed meanwhile (scraped by an install or close, or filled by another
 *       thread of the stripe) the read unreferences its version instead.
 * </ul>
 *
 * Every reference has exactly one owner, a slot or a read, whatever the interleaving: a swap or a
 * successful compare-and-set moves ownership, a failed one leaves it with the read.
 *
 * <p><b>Why a read sees what a referenced read saw.</b> A read pins the memtables, then the
 * version, then the sequence ({@link Reads#pin}); the version step must give a version at least
 * as new as any version current when it runs. A cached version is used only if it is
 * {@link VersionSet#current()} when the read checks (a volatile read after the memtables', before
 * the sequence's), the same answer {@link VersionSet#refCurrent()} would give at that moment; its
 * reference, owned by the read, keeps it unreleased until the read puts it back.
 *
 * <p><b>Why old versions do not linger.</b> The version set calls {@link #scrape()} after each
 * install (under the engine mutex): every slot is emptied and the versions found unreferenced, so
 * a slot no thread reads from keeps no replaced version (and with it its files) alive. A slot in
 * use when scraped is left empty; its read then fails to put its version back and drops it.
 * {@link #close()} scrapes and keeps slots from filling again.
 */
public final class CachedVersions {
  /** References per stripe in {@link #slots}: 128 bytes apart, so no two stripes share a cache line. */
  private static final int SPACING = 32;
  /** A slot's content while a read of its stripe uses what the slot held. */
  private static final Object IN_USE = new Object();

  private final VersionSet versions;
  private final int stripes;
  private final AtomicReferenceArray<Object> slots;
  private volatile boolean closed;

  public CachedVersions(VersionSet versions) {
    this(versions, ThreadStripes.count());
  }

  /** @param stripes a power of two; tests give 1 to have every thread share one slot */
  public CachedVersions(VersionSet versions, int stripes) {
    if (Integer.bitCount(stripes) != 1) {
      throw new IllegalArgumentException("stripes must be a power of two: " + stripes);
    }
    this.versions = versions;
    this.stripes = stripes;
    this.slots = new AtomicReferenceArray<>(stripes * SPACING);
  }

  /**
   * The current version, referenced for the caller; pair with {@link #release} on the same
   * thread. Safe without the engine mutex.
   */
  public Version acquire() {
    Object cached = slots.getAndSet(slot(), IN_USE);
    if (cached instanceof Version v) {
      if (v == versions.current()) {
        return v;
      }
      v.unref(); // replaced before an install's scrape reached this slot
    }
    return versions.refCurrent();
  }

  /** Ends a read of {@code v} taken by {@link #acquire()} on this thread: keeps it for the next, or drops it. */
  public void release(Version v) {
    if (closed || !slots.compareAndSet(slot(), IN_USE, v)) {
      v.unref();
    }
  }

  /**
   * Empties every slot and unreferences the versions they held. Called after the current version
   * changes, and at close. Any thread; the unreferences may release versions (and run the version
   * set's released listener) on this one.
   */
  public void scrape() {
    for (int i = 0; i < stripes; i++) {
      if (slots.getAndSet(i * SPACING, null) instanceof Version v) {
        v.unref();
      }
    }
  }

  /** Drops every cached reference and keeps none after this. Requires: no read in flight. */
  public void close() {
    closed = true;
    scrape();
  }

  /** Versions the slots hold now (tests). */
  public int cachedCount() {
    int n = 0;
    for (int i = 0; i < stripes; i++) {
      if (slots.get(i * SPACING) instanceof Version) {
        n++;
      }
    }
    return n;
  }

  private int slot() {
    return ThreadStripes.of(stripes) * SPACING;
  }
}
