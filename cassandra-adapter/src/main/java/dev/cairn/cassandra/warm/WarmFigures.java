package dev.cairn.cassandra.warm;

/**
 * What one strategy instance's warming has done since it started, for the table's JMX bean.
 *
 * @param warmedCompactions compactions whose output had chunks read into the chunk cache
 * @param chunks chunks read
 * @param bytes their bytes (chunks times chunk size)
 * @param millis time spent reading them
 * @param skipped compactions not warmed: warming off, no chunk cache, high load, no recently read
 *     partition in the output, or the warming thread's queue full
 * @param leftOutBytes hot chunks' bytes the budget left unread
 * @param warmedOutputReads reads of warmed outputs since they went live (their read meters): an
 *     upper bound on the reads warming could have served, not a count of chunk-cache hits, which
 *     Cassandra does not expose per chunk
 * @param last the last warming or skip and its reason
 */
public record WarmFigures(
    long warmedCompactions,
    long chunks,
    long bytes,
    long millis,
    long skipped,
    long leftOutBytes,
    long warmedOutputReads,
    String last) {

  public static final WarmFigures NONE = new WarmFigures(0, 0, 0, 0, 0, 0, 0, "none yet");
}
