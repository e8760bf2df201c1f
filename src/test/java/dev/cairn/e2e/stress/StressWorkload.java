package dev.cairn.e2e.stress;

/**
 * What the stress process writes: everything that decides the operation sequences, so it must
 * stay the same for every cycle on one database (the driver replays the sequences to know the
 * expected state). Engine settings, which may change between cycles, are in {@link EngineSettings}.
 *
 * @param seed seeds every thread's operation sequence
 * @param threads writer threads, each owning a disjoint key range
 * @param keysPerThread keys in each thread's range
 * @param syncPercent share of writes made with {@code WriteOptions.SYNC}
 */
record StressWorkload(long seed, int threads, int keysPerThread, int syncPercent) {
  StressWorkload {
    if (threads < 1 || threads > 99) {
      throw new IllegalArgumentException("threads must be in [1, 99]: " + threads);
    }
    if (keysPerThread < 10 || keysPerThread > 999_999) {
      throw new IllegalArgumentException("keysPerThread must be in [10, 999999]: " + keysPerThread);
    }
    if (syncPercent < 0 || syncPercent > 100) {
      throw new IllegalArgumentException("syncPercent must be in [0, 100]: " + syncPercent);
    }
  }

  /** The command-line form read back by {@link #parse}. */
  String toArg() {
    return seed + ":" + threads + ":" + keysPerThread + ":" + syncPercent;
  }

  static StressWorkload parse(String arg) {
    String[] p = arg.split(":");
    return new StressWorkload(Long.parseLong(p[0]), Integer.parseInt(p[1]), Integer.parseInt(p[2]),
        Integer.parseInt(p[3]));
  }
}
