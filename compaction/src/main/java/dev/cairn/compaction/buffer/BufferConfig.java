package dev.cairn.compaction.buffer;

/**
 * Settings of the LSbM compaction buffer ({@code CompactionSettings.Buffer}; see
 * docs/compaction.md, "Compaction buffer"). Defaults are the LSbM paper's.
 *
 * @param trimIntervalMillis the longest time between two trim passes (the paper trims every 30
 *     s); passes come sooner as writes arrive ({@code trimPassesPerBaseLevel})
 * @param trimCachedFraction a buffer file stays (outside the newest buffer run) only while at
 *     least this fraction of its blocks is in the block cache (the paper: 0.8)
 * @param freezeRepeatedFraction a level's buffer freezes when the bytes merged into the level
 *     during its current round exceed the level's size by more than this fraction of it
 *     (then repeated keys must have been dropped: LSbM section 4.1), until the level's compaction
 *     pointer wraps around; {@code Double.POSITIVE_INFINITY} never freezes
 * @param trimUnitBytes the trim's unit: a buffer file is judged in runs of consecutive data blocks
 *     of about this many bytes, and only its cold runs leave the buffer. LSbM's super-files give
 *     the tree and the buffer their own granularity (the tree compacts 20 MB super-files, the
 *     buffer trims their 2 MB files: r = 10); Cairn's tree compacts table files and the buffer
 *     trims block runs of a file instead (docs/compaction.md, "Trim units"). 0, the default,
 *     derives it from the tree: a 512th of the base level's size, the paper's 2 MB units in a
 *     1 GB level 1 ({@link TrimPacing}). At least one block is always a unit.
 * @param carryBuffers whether a file a merge appends to level i+1's buffer carries level i's
 *     buffer over its range along (docs/compaction.md, "Carried buffers"), so the blocks that
 *     served those reads keep serving them; off, that buffer is dropped as in the paper
 * @param coldRunBudget the trim keeps a cold run of a file without a filter that lies over
 *     cached blocks of an older buffer run (its plain marker would hide them) while the buffer's
 *     extra disk space is at most this multiple of the block cache's size; 0 never keeps one (the
 *     paper's trim). A file with a filter leaves a filter marker instead, which needs no space
 * @param maxSpaceFraction the buffer's extra disk space (files no level holds) is at most this
 *     fraction of the levels' bytes whenever a compaction installs: over it, the oldest buffer
 *     runs lose files ({@code BufferDraft.fitSpace}); 0 keeps no buffer at all
 * @param trimPassesPerBaseLevel a trim pass runs each time the user has written this fraction
 *     (1/n) of the base level's size since the previous pass, and at the latest after {@code
 *     trimIntervalMillis}: the paper's 30 s at its write rate and 1 GB level 1 are a 32nd of the
 *     level, so the trim keeps pace with the tree's churn at any data size and write rate
 *     ({@link TrimPacing}). 0 paces by time alone
 * @param partRewriteFraction a buffer file that only the buffer holds, whose parts (what the trim
 *     left of it) keep at most this fraction of its data bytes, is rewritten as a table of
 *     those parts' blocks alone, and its cache entries move along ({@link PartCompaction};
 *     docs/compaction.md, "Part compaction"); 0 never rewrites
 * @param keepColdArrivals whether a merge appends a file none of whose blocks is warm in the
 *     block cache (nor of the buffer it carries). Off, the default, such a file is left out
 *     where that needs no marker: it holds nothing a read cached, so the level's new file serves
 *     its keys as well, and kept it would only take the reads' warmth from that file and cost
 *     space (docs/compaction.md, "Cold arrivals"). On, every input and target is appended, as in
 *     the paper (the reliability tests use it, so that merges feed the buffer without reads)
 * @param fullBoundMissMicros what a block cache miss must cost, in microseconds, for the buffer
 *     to get its whole {@code maxSpaceFraction}: the engine times the block reads of point reads,
 *     and below this cost the bound shrinks in proportion ({@link MissCost}; docs/compaction.md,
 *     "What a miss costs"), since a cheap miss re-warms a merged level faster than the buffer
 *     repays its space and walks. 0 keeps the full bound whatever a miss costs
 * @param scansThroughBuffer whether iterators read a level file's range from the buffer files
 *     a merge made it of, while the buffer still holds them whole (LSbM's Algorithm 4 where it is
 *     exact: {@link ScanSources}; docs/compaction.md, "Range queries through the buffer"); off,
 *     the default, iterators read the levels' files only
 */
public record BufferConfig(long trimIntervalMillis, double trimCachedFraction, double freezeRepeatedFraction,
    long trimUnitBytes, boolean carryBuffers, double coldRunBudget, double maxSpaceFraction,
    int trimPassesPerBaseLevel, double partRewriteFraction, boolean keepColdArrivals, double fullBoundMissMicros,
    boolean scansThroughBuffer) {
  public BufferConfig {
    if (trimIntervalMillis < 1 || trimIntervalMillis > 24L * 3600 * 1000) {
      throw new IllegalArgumentException("buffer trimIntervalMillis out of range [1, 1 day]: " + trimIntervalMillis);
    }
    if (!(trimCachedFraction >= 0 && trimCachedFraction <= 1)) {
      throw new IllegalArgumentException("buffer trimCachedFraction out of range [0, 1]: " + trimCachedFraction);
    }
    if (!(freezeRepeatedFraction >= 0)) { // +infinity: never freeze
      throw new IllegalArgumentException("buffer freezeRepeatedFraction must be >= 0: " + freezeRepeatedFraction);
    }
    if (trimUnitBytes < 0 || trimUnitBytes > (1L << 40)) {
      throw new IllegalArgumentException("buffer trimUnitBytes out of range [0 (derived), 1 TiB]: " + trimUnitBytes);
    }
    if (trimPassesPerBaseLevel < 0 || trimPassesPerBaseLevel > 1 << 20) {
      throw new IllegalArgumentException("buffer trimPassesPerBaseLevel out of range [0, 2^20]: "
          + trimPassesPerBaseLevel);
    }
    if (!(coldRunBudget >= 0 && coldRunBudget <= 1000)) {
      throw new IllegalArgumentException("buffer coldRunBudget out of range [0, 1000]: " + coldRunBudget);
    }
    if (!(maxSpaceFraction >= 0 && maxSpaceFraction <= 1000)) {
      throw new IllegalArgumentException("buffer maxSpaceFraction out of range [0, 1000]: " + maxSpaceFraction);
    }
    if (!(fullBoundMissMicros >= 0 && fullBoundMissMicros <= 60_000_000)) {
      throw new IllegalArgumentException("buffer fullBoundMissMicros out of range [0, 1 minute]: " + fullBoundMissMicros);
    }
    if (!(partRewriteFraction >= 0 && partRewriteFraction < 1)) {
      throw new IllegalArgumentException("buffer partRewriteFraction out of range [0, 1): " + partRewriteFraction);
    }
  }

  /**
   * 80% cached threshold, no freeze (docs/compaction.md, "Freeze": in a
   * leveled tree the paper's test freezes the upper levels and costs most of the buffer's
   * benefit; {@code withFreezeRepeatedFraction(0.1)} is the paper's rule), trim units derived from
   * the base level (a 512th of it), carried buffers, cold runs over cached data kept up to four
   * times the cache's size, extra space at most a fifth of the levels' bytes (measured against a
   * tenth: docs/compaction.md, "The space bound"), a trim pass per
   * 32nd of the base level written and at least every 30 s, files whose parts keep at most half
   * of them rewritten, files that arrive with nothing warm left out, and the whole bound only
   * where a miss costs a millisecond or more (a disk seek; docs/compaction.md, "What a miss
   * costs"). Scans read the levels only: through the buffer they measured 0.87-0.89x the
   * tree's scans/s (docs/compaction.md, "Range queries through the buffer").
   */
  public static BufferConfig defaults() {
    return new BufferConfig(30_000, 0.8, Double.POSITIVE_INFINITY, 0, true, 4.0, 0.20, 32, 0.5, false, 1000, false);
  }

  public BufferConfig withTrimIntervalMillis(long v) {
    return new BufferConfig(v, trimCachedFraction, freezeRepeatedFraction, trimUnitBytes,
        carryBuffers, coldRunBudget, maxSpaceFraction, trimPassesPerBaseLevel, partRewriteFraction,
        keepColdArrivals, fullBoundMissMicros, scansThroughBuffer);
  }

  public BufferConfig withTrimCachedFraction(double v) {
    return new BufferConfig(trimIntervalMillis, v, freezeRepeatedFraction, trimUnitBytes,
        carryBuffers, coldRunBudget, maxSpaceFraction, trimPassesPerBaseLevel, partRewriteFraction,
        keepColdArrivals, fullBoundMissMicros, scansThroughBuffer);
  }

  public BufferConfig withFreezeRepeatedFraction(double v) {
    return new BufferConfig(trimIntervalMillis, trimCachedFraction, v, trimUnitBytes,
        carryBuffers, coldRunBudget, maxSpaceFraction, trimPassesPerBaseLevel, partRewriteFraction,
        keepColdArrivals, fullBoundMissMicros, scansThroughBuffer);
  }

  public BufferConfig withTrimUnitBytes(long v) {
    return new BufferConfig(trimIntervalMillis, trimCachedFraction, freezeRepeatedFraction, v,
        carryBuffers, coldRunBudget, maxSpaceFraction, trimPassesPerBaseLevel, partRewriteFraction,
        keepColdArrivals, fullBoundMissMicros, scansThroughBuffer);
  }

  public BufferConfig withCarryBuffers(boolean v) {
    return new BufferConfig(trimIntervalMillis, trimCachedFraction, freezeRepeatedFraction, trimUnitBytes,
        v, coldRunBudget, maxSpaceFraction, trimPassesPerBaseLevel, partRewriteFraction,
        keepColdArrivals, fullBoundMissMicros, scansThroughBuffer);
  }

  public BufferConfig withColdRunBudget(double v) {
    return new BufferConfig(trimIntervalMillis, trimCachedFraction, freezeRepeatedFraction, trimUnitBytes,
        carryBuffers, v, maxSpaceFraction, trimPassesPerBaseLevel, partRewriteFraction,
        keepColdArrivals, fullBoundMissMicros, scansThroughBuffer);
  }

  public BufferConfig withMaxSpaceFraction(double v) {
    return new BufferConfig(trimIntervalMillis, trimCachedFraction, freezeRepeatedFraction, trimUnitBytes,
        carryBuffers, coldRunBudget, v, trimPassesPerBaseLevel, partRewriteFraction,
        keepColdArrivals, fullBoundMissMicros, scansThroughBuffer);
  }

  public BufferConfig withTrimPassesPerBaseLevel(int v) {
    return new BufferConfig(trimIntervalMillis, trimCachedFraction, freezeRepeatedFraction, trimUnitBytes,
        carryBuffers, coldRunBudget, maxSpaceFraction, v, partRewriteFraction, keepColdArrivals, fullBoundMissMicros,
        scansThroughBuffer);
  }

  public BufferConfig withPartRewriteFraction(double v) {
    return new BufferConfig(trimIntervalMillis, trimCachedFraction, freezeRepeatedFraction, trimUnitBytes,
        carryBuffers, coldRunBudget, maxSpaceFraction, trimPassesPerBaseLevel, v, keepColdArrivals, fullBoundMissMicros,
        scansThroughBuffer);
  }

  public BufferConfig withKeepColdArrivals(boolean v) {
    return new BufferConfig(trimIntervalMillis, trimCachedFraction, freezeRepeatedFraction, trimUnitBytes,
        carryBuffers, coldRunBudget, maxSpaceFraction, trimPassesPerBaseLevel, partRewriteFraction, v, fullBoundMissMicros,
        scansThroughBuffer);
  }

  public BufferConfig withScansThroughBuffer(boolean v) {
    return new BufferConfig(trimIntervalMillis, trimCachedFraction, freezeRepeatedFraction, trimUnitBytes,
        carryBuffers, coldRunBudget, maxSpaceFraction, trimPassesPerBaseLevel, partRewriteFraction,
        keepColdArrivals, fullBoundMissMicros, v);
  }

  public BufferConfig withFullBoundMissMicros(double v) {
    return new BufferConfig(trimIntervalMillis, trimCachedFraction, freezeRepeatedFraction, trimUnitBytes,
        carryBuffers, coldRunBudget, maxSpaceFraction, trimPassesPerBaseLevel, partRewriteFraction,
        keepColdArrivals, v, scansThroughBuffer);
  }
}
