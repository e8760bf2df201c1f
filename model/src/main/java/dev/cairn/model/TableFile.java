package dev.cairn.model;

/**
 * What the compaction buffer's model needs of a table file: its number, its user-key range, its
 * size and its newest sequence. The engine's own file metadata implements it, so the buffer's
 * runs and the decisions over them ({@code dev.cairn.compaction.buffer}) carry the engine's files
 * through unchanged; tests use a small record of their own.
 *
 * <p>Implementations compare by value ({@code equals} and {@code hashCode} over every field): a
 * buffer draft finds the entries to remove and add by comparing the entries of the base with its
 * own ({@code BufferDraft.writeTo}), and a trim applies a planned split only while the run still
 * holds an equal entry ({@code BufferDraft.split}). Under identity equality an entry rebuilt
 * with the same content (a version replayed from the manifest, a clipped carried buffer) would
 * count as changed: written to the manifest again, and its planned split skipped.
 */
public interface TableFile {
  /** The file number, unique within a database and never reused. */
  long number();

  /** Smallest user key in the file (inclusive); a copy or a view the caller must not modify. */
  byte[] smallestUserKey();

  /** Largest user key in the file (inclusive). */
  byte[] largestUserKey();

  /** The file's size on disk. */
  long totalBytes();

  /** The largest sequence number of any entry in the file. */
  long largestSequence();
}
