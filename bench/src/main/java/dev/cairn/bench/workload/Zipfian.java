package dev.cairn.bench.workload;

import java.util.SplittableRandom;

/**
 * Zipfian ranks in {@code [0, n)}: rank 0 is the most popular, rank i is drawn with probability
 * proportional to {@code 1 / (i+1)^theta}. This is the rejection-free algorithm YCSB's
 * {@code ZipfianGenerator} uses (Gray et al., "Quickly generating billion-record synthetic
 * databases", SIGMOD 1994), rewritten to draw from a caller-supplied seeded source: YCSB 0.17's
 * generators draw from {@code ThreadLocalRandom} and cannot be seeded (see peers.md).
 */
public final class Zipfian implements KeyChooser {
  /** YCSB's default skew. */
  public static final double YCSB_THETA = 0.99;

  private final long n;
  private final double theta;
  private final double alpha;
  private final double zetaN;
  private final double eta;
  private final double halfPowTheta;

  public Zipfian(long n, double theta) {
    if (n < 1) {
      throw new IllegalArgumentException("zipfian needs at least one item, got " + n);
    }
    if (!(theta > 0 && theta < 1)) {
      throw new IllegalArgumentException("zipfian theta must be in (0, 1), got " + theta);
    }
    this.n = n;
    this.theta = theta;
    this.alpha = 1.0 / (1.0 - theta);
    this.zetaN = zeta(n, theta);
    double zeta2 = zeta(2, theta);
    this.eta = (1 - Math.pow(2.0 / n, 1 - theta)) / (1 - zeta2 / zetaN);
    this.halfPowTheta = Math.pow(0.5, theta);
  }

  /** Sum over i in 1..n of 1/i^theta: O(n), computed once (20 ms for a million items). */
  static double zeta(long n, double theta) {
    double sum = 0;
    for (long i = 1; i <= n; i++) {
      sum += 1.0 / Math.pow(i, theta);
    }
    return sum;
  }

  public long items() {
    return n;
  }

  public double theta() {
    return theta;
  }

  @Override
  public long next(SplittableRandom random) {
    double u = random.nextDouble();
    double uz = u * zetaN;
    if (uz < 1.0) {
      return 0;
    }
    if (uz < 1.0 + halfPowTheta) {
      return Math.min(1, n - 1);
    }
    long rank = (long) (n * Math.pow(eta * u - eta + 1, alpha));
    return Math.min(rank, n - 1);
  }
}
