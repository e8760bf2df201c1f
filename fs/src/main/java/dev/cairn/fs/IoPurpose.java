package dev.cairn.fs;

/**
 * Why a byte was read or written. Every I/O is tagged so that write amplification and read
 * traffic can be broken down (docs/benchmarks.md, "Output contract", and the engine's stats). The persistent id is
 * used in stats output and never reused.
 */
public enum IoPurpose {
  WAL(0),
  MANIFEST(1),
  FLUSH(2),
  /** Compaction I/O; the level of an {@link IoTag} says which output level it is for. */
  COMPACTION(3),
  USER_READ(4),
  /** Reserved for the compaction buffer (LSbM). */
  BUFFER(5),
  OTHER(6);

  private final int persistentId;

  IoPurpose(int persistentId) {
    this.persistentId = persistentId;
  }

  public int persistentId() {
    return persistentId;
  }
}
