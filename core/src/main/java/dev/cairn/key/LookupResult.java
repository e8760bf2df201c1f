package dev.cairn.key;

/**
 * The outcome of a point lookup in one component (memtable, table, level): the newest entry for
 * the key visible at the snapshot was a value, was a tombstone, or there was none here (so the
 * search goes on to older components).
 */
public record LookupResult(Kind kind, byte[] value) {
  public enum Kind {
    FOUND,
    DELETED,
    NOT_PRESENT
  }

  public static final LookupResult DELETED = new LookupResult(Kind.DELETED, null);
  public static final LookupResult NOT_PRESENT = new LookupResult(Kind.NOT_PRESENT, null);

  public static LookupResult found(byte[] value) {
    return new LookupResult(Kind.FOUND, value);
  }

  /** Whether the search can stop here (found a value or a tombstone). */
  public boolean isDecided() {
    return kind != Kind.NOT_PRESENT;
  }
}
