package dev.cairn.key;

/**
 * The kind of an internal entry. The persistent id is written to disk (WAL, tables) and never
 * changes or gets reused; {@link #ordinal()} is never persisted.
 */
public enum ValueType {
  DELETION(0),
  VALUE(1),
  /** A merge operand: combined with the key's older entries by the database's merge operator. */
  MERGE(2),
  /**
   * A range tombstone: deletes every key in [its user key, its value) written before it. Kept
   * apart from the point entries (a memtable's list, a table's range-deletion block), never among
   * them.
   */
  RANGE_DELETION(3);

  /**
   * The point entry type with the highest id: used in seek keys so that a seek lands on the
   * newest entry (range tombstones never stand among point entries).
   */
  public static final ValueType FOR_SEEK = MERGE;

  private final int persistentId;

  ValueType(int persistentId) {
    this.persistentId = persistentId;
  }

  public int persistentId() {
    return persistentId;
  }

  /** Returns the type for a persisted id, or null if the id is unknown (caller reports corruption). */
  public static ValueType fromPersistentId(int id) {
    return switch (id) {
      case 0 -> DELETION;
      case 1 -> VALUE;
      case 2 -> MERGE;
      case 3 -> RANGE_DELETION;
      default -> null;
    };
  }
}
