package dev.cairn.compaction;

/**
 * How the executor cuts a merge's output into files, so that it needs no picker configuration:
 * start a new output file once the current one reaches {@code targetFileBytes}, or once it
 * overlaps more than {@code maxGrandparentOverlapBytes} of the grandparent level (LevelDB's
 * {@code ShouldStopBefore}: a file that overlaps too much of the next level makes its own later
 * compaction too expensive). Never cut between two entries of the same user key. {@link
 * OutputCuts} applies the overlap bound and aligns file ends with the grandparents'.
 */
public record OutputLimits(long targetFileBytes, long maxGrandparentOverlapBytes) {

  public OutputLimits {
    if (targetFileBytes <= 0 || maxGrandparentOverlapBytes < 0) {
      throw new IllegalArgumentException(
          "bad output limits: target " + targetFileBytes + ", grandparent overlap "
              + maxGrandparentOverlapBytes);
    }
  }
}
