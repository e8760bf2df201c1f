package dev.cairn.table;

/**
 * Bloom filter outcomes of a table's point lookups, counted since it was opened.
 *
 * @param probes lookups that consulted the filter
 * @param useful probes the filter answered "absent" (a block read saved)
 * @param positives probes the filter answered "may be present"
 * @param truePositives positives where the table did hold an entry for the key
 */
public record FilterCounters(long probes, long useful, long positives, long truePositives) {
  public long falsePositives() {
    return positives - truePositives;
  }
}
