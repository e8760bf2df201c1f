package dev.cairn.table;

/**
 * What {@link TableBuilder#finish()} wrote, for the manifest's file entry.
 *
 * @param footerOffset offset of the footer just written (the manifest names it)
 * @param fileSize valid length of the file: footerOffset + {@link Footer#SIZE}
 * @param entries entries in the table
 * @param smallest smallest internal key (empty if no entries)
 * @param largest largest internal key (empty if no entries)
 * @param smallestSequence smallest sequence number (0 if no entries)
 * @param largestSequence largest sequence number (0 if no entries)
 */
public record TableSummary(
    long footerOffset,
    long fileSize,
    long entries,
    byte[] smallest,
    byte[] largest,
    long smallestSequence,
    long largestSequence) {}
