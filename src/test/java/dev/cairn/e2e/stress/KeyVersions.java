package dev.cairn.e2e.stress;

import dev.cairn.Cairn;
import dev.cairn.CairnIterator;
import dev.cairn.ReadOptions;
import java.util.Arrays;

/**
 * The state of one thread's keys as the version each holds ({@link #ABSENT} when deleted or never
 * written). Used both as the expected state (built by replaying {@link StressOp}s) and as the
 * observed state (read back from a database). Not thread-safe.
 */
final class KeyVersions {
  static final long ABSENT = 0;

  private final int thread;
  private final long[] versions;

  KeyVersions(int thread, int keys) {
    this.thread = thread;
    this.versions = new long[keys];
  }

  private KeyVersions(int thread, long[] versions) {
    this.thread = thread;
    this.versions = versions;
  }

  int thread() {
    return thread;
  }

  int size() {
    return versions.length;
  }

  long get(int key) {
    return versions[key];
  }

  void set(int key, long version) {
    versions[key] = version;
  }

  KeyVersions copy() {
    return new KeyVersions(thread, versions.clone());
  }

  /**
   * Reads the thread's key range with an iterator (through {@code options}'s snapshot, if any).
   * Throws {@link StressFailure} for a key or value that this test never wrote.
   */
  static KeyVersions read(Cairn db, ReadOptions options, int thread, int keys) {
    KeyVersions seen = new KeyVersions(thread, keys);
    int previous = -1;
    try (CairnIterator it = db.iterator(options.withBounds(StressKeys.threadPrefix(thread), StressKeys.threadEnd(thread)))) {
      for (it.seekToFirst(); it.isValid(); it.next()) {
        byte[] key = it.key();
        int index = StressKeys.indexOf(thread, key);
        if (index < 0 || index >= keys) {
          throw new StressFailure("iterator returned a key thread " + thread + " never wrote: " + Arrays.toString(key));
        }
        if (index <= previous) {
          throw new StressFailure("iterator out of order or repeated: key " + index + " after " + previous
              + " in thread " + thread + "'s range");
        }
        previous = index;
        long version = StressKeys.versionOf(thread, index, it.value());
        if (version < 0) {
          throw new StressFailure("iterator returned a value never written for thread " + thread + " key " + index
              + ": " + StressKeys.describe(it.value()));
        }
        seen.versions[index] = version;
      }
    }
    return seen;
  }

  /** The version a point read of {@code key} returns (checking the value's bytes). */
  static long pointRead(byte[] value, int thread, int key) {
    if (value == null) {
      return ABSENT;
    }
    long version = StressKeys.versionOf(thread, key, value);
    if (version < 0) {
      throw new StressFailure("point read returned a value never written for thread " + thread + " key " + key
          + ": " + StressKeys.describe(value));
    }
    return version;
  }

  /** A description of where this state differs from {@code expected} (at most a few keys), or null if equal. */
  String diff(KeyVersions expected) {
    StringBuilder out = new StringBuilder();
    int shown = 0;
    int differing = 0;
    for (int k = 0; k < versions.length; k++) {
      if (versions[k] != expected.versions[k]) {
        differing++;
        if (shown++ < 5) {
          out.append(" key ").append(k).append(": found ").append(describe(versions[k]))
              .append(", expected ").append(describe(expected.versions[k])).append(';');
        }
      }
    }
    return differing == 0 ? null : differing + " keys differ:" + out;
  }

  private static String describe(long version) {
    return version == ABSENT ? "absent" : "version " + version;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof KeyVersions k && k.thread == thread && Arrays.equals(k.versions, versions);
  }

  @Override
  public int hashCode() {
    return 31 * thread + Arrays.hashCode(versions);
  }
}
