package dev.cairn.fs;

/**
 * The accounting bucket of an I/O: a purpose and, for compaction, the output level (-1 when no
 * level applies).
 */
public record IoTag(IoPurpose purpose, int level) {
  public static final IoTag WAL = new IoTag(IoPurpose.WAL, -1);
  public static final IoTag MANIFEST = new IoTag(IoPurpose.MANIFEST, -1);
  public static final IoTag FLUSH = new IoTag(IoPurpose.FLUSH, 0);
  public static final IoTag USER_READ = new IoTag(IoPurpose.USER_READ, -1);
  public static final IoTag OTHER = new IoTag(IoPurpose.OTHER, -1);

  public static IoTag compaction(int outputLevel) {
    return new IoTag(IoPurpose.COMPACTION, outputLevel);
  }
}
