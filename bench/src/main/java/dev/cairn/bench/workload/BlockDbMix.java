package dev.cairn.bench.workload;

import java.util.List;

/**
 * BlockDB's mixes of writes and reads after a load (Wang et al., ICDE 2022, Table III), the
 * write-only one being the load itself: each request is a write with the mix's share and a read
 * otherwise. Reads are half point reads and half scans of 1-100 records, their keys drawn Zipfian
 * at the paper's 0.9. Writes are updates of uniform loaded keys: the paper's writes are inserts
 * and updates, but the runner's keys are ordered ids, so an insert would land past every loaded
 * key, a sequential append no compaction style pays for, where YCSB's hashed inserts scatter over
 * the key space as uniform updates do.
 */
public enum BlockDbMix {
  WRITE_HEAVY("write_heavy", 0.8),
  BALANCED("balanced", 0.5),
  READ_HEAVY("read_heavy", 0.2),
  READ_ONLY("read_only", 0.0);

  /** The skew of the paper's read keys (YCSB's default is 0.99). */
  public static final double THETA = 0.9;

  private final String key;
  private final double writeShare;

  BlockDbMix(String key, double writeShare) {
    this.key = key;
    this.writeShare = writeShare;
  }

  /** The mix's name in summary.json's keys ({@code mix_<key>_ops_per_s}). */
  public String key() {
    return key;
  }

  /** The share of requests that write. */
  public double writeShare() {
    return writeShare;
  }

  /** summary.json's key of the mix's requests per second. */
  public String opsKey() {
    return "mix_" + key + "_ops_per_s";
  }

  /** summary.json's key of the mix's write amplification. */
  public String writeAmplificationKey() {
    return "mix_" + key + "_write_amplification";
  }

  /** summary.json's key of the mix's block-cache hit ratio. */
  public String hitRatioKey() {
    return "mix_" + key + "_hit_ratio";
  }

  /** Whether the mix writes at all, so that it has a write amplification of its own. */
  public boolean writes() {
    return writeShare > 0;
  }

  /** The mixes in the order they run, the most writing first. */
  public static List<BlockDbMix> inOrder() {
    return List.of(values());
  }
}
