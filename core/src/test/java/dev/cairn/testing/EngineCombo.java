package dev.cairn.testing;

import dev.cairn.Options;
import dev.cairn.cache.EvictionPolicy;
import dev.cairn.compaction.block.BlockCompactionConfig;
import dev.cairn.compaction.buffer.BufferConfig;
import dev.cairn.compaction.dlc.DlcConfig;
import dev.cairn.compaction.leveled.CompactionPriority;
import dev.cairn.config.BlockCompactionExecution;
import dev.cairn.config.CompactionSettings;
import dev.cairn.config.Compression;
import dev.cairn.testkit.LongTests;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * One compaction style with one compaction scheduler and one level layout, and the one place where the reliability
 * tests (power loss, fault injection, corruption, close in flight, the model test, the kill test,
 * the crash test) tune them: a test builds its own base options (sizes, cache, filesystem) and
 * hands the builder to {@link #apply}, which sets the style, the scheduler and their settings.
 *
 * <p>Each combination also stores its blocks compressed as {@link #compression()} says, so that every
 * style runs every codec through the reliability tests of any CI rotation.
 *
 * <p>Which combinations a parameterized test runs: {@link #select} returns the test's CI rotation
 * (a few combinations covering every style, scheduler and layout), or every valid combination with
 * {@code -Dcairn.long=true}; {@code -Dcairn.combos=BLOCK/DLC,TABLE/IMMEDIATE/TWO_PHASE} (or {@code all})
 * runs exactly those, e.g. to replay a failure with its {@code -Dcairn.seed}.
 */
public record EngineCombo(CompactionStyle style, CompactionScheduler scheduler, LevelLayout layout) {

  /** What a merge does ({@link CompactionSettings.Execution}). */
  public enum CompactionStyle {
    TABLE, BLOCK, BUFFER;

    /** This style at its defaults; BUFFER with {@code buffer}. */
    public CompactionSettings.LeveledExecution execution(BufferConfig buffer) {
      return switch (this) {
        case TABLE -> CompactionSettings.Table.defaults();
        case BLOCK -> CompactionSettings.Block.defaults();
        case BUFFER -> new CompactionSettings.Buffer(buffer);
      };
    }

    /** This style over leveled levels, plans run at once, at its defaults; BUFFER with {@code buffer}. */
    public CompactionSettings leveled(BufferConfig buffer) {
      return CompactionSettings.leveled(execution(buffer));
    }
  }

  /** When plans run ({@link CompactionSettings.Scheduler}). */
  public enum CompactionScheduler { IMMEDIATE, DLC }

  /** How the levels below L0 are laid out ({@link CompactionSettings.Leveled}, {@link CompactionSettings.TwoPhase}). */
  public enum LevelLayout { LEVELED, TWO_PHASE }

  public EngineCombo {
    if (style == null || scheduler == null || layout == null) {
      throw new IllegalArgumentException("style, scheduler and layout must not be null");
    }
    if (layout == LevelLayout.TWO_PHASE && (style == CompactionStyle.BLOCK || scheduler == CompactionScheduler.DLC)) {
      throw new IllegalArgumentException("two-phase levels run TABLE or BUFFER, IMMEDIATE only: " + style + "/" + scheduler);
    }
  }

  /** {@code style} and {@code scheduler} over leveled levels. */
  public static EngineCombo of(CompactionStyle style, CompactionScheduler scheduler) {
    return new EngineCombo(style, scheduler, LevelLayout.LEVELED);
  }

  /** dLSM's two-phase levels under table compaction (the paper's LSM baseline). */
  public static EngineCombo twoPhase() {
    return new EngineCombo(CompactionStyle.TABLE, CompactionScheduler.IMMEDIATE, LevelLayout.TWO_PHASE);
  }

  /** dLSM: the compaction buffer over two-phase levels, flushed blocks cached in an LRU cache. */
  public static EngineCombo dlsm() {
    return new EngineCombo(CompactionStyle.BUFFER, CompactionScheduler.IMMEDIATE, LevelLayout.TWO_PHASE);
  }

  /** Every style with every scheduler over leveled levels, and the two two-phase combinations: the long variants' set. */
  public static List<EngineCombo> all() {
    List<EngineCombo> all = new ArrayList<>();
    for (CompactionStyle style : CompactionStyle.values()) {
      for (CompactionScheduler scheduler : CompactionScheduler.values()) {
        all.add(of(style, scheduler));
      }
    }
    all.add(twoPhase());
    all.add(dlsm());
    return List.copyOf(all);
  }

  /**
   * The combinations a test runs: {@code ci} by default, {@link #all()} with {@code
   * -Dcairn.long=true}, the list in {@code -Dcairn.combos} when given. {@code ci} must name
   * every style, scheduler and layout at least once, so that no part of the engine drops out of CI.
   */
  public static List<EngineCombo> select(EngineCombo... ci) {
    Set<CompactionStyle> styles = Arrays.stream(ci).map(EngineCombo::style)
        .collect(Collectors.toCollection(() -> EnumSet.noneOf(CompactionStyle.class)));
    Set<CompactionScheduler> schedulers = Arrays.stream(ci).map(EngineCombo::scheduler)
        .collect(Collectors.toCollection(() -> EnumSet.noneOf(CompactionScheduler.class)));
    Set<LevelLayout> layouts = Arrays.stream(ci).map(EngineCombo::layout)
        .collect(Collectors.toCollection(() -> EnumSet.noneOf(LevelLayout.class)));
    if (!styles.equals(EnumSet.allOf(CompactionStyle.class))
        || !schedulers.equals(EnumSet.allOf(CompactionScheduler.class))
        || !layouts.equals(EnumSet.allOf(LevelLayout.class))) {
      throw new IllegalArgumentException("a CI rotation must cover every style, scheduler and layout: "
          + Arrays.toString(ci));
    }
    String chosen = System.getProperty("cairn.combos", "");
    if (!chosen.isBlank()) {
      return chosen.trim().equalsIgnoreCase("all")
          ? all()
          : Arrays.stream(chosen.split(",")).map(String::trim).map(EngineCombo::parse).toList();
    }
    return LongTests.enabled() ? all() : List.of(ci);
  }

  /** {@code STYLE/SCHEDULER} or {@code STYLE/SCHEDULER/LAYOUT}, as {@link #toString()} writes it. */
  public static EngineCombo parse(String text) {
    String[] parts = text.split("/");
    if (parts.length != 2 && parts.length != 3) {
      throw new IllegalArgumentException("not STYLE/SCHEDULER[/LAYOUT]: " + text);
    }
    return new EngineCombo(CompactionStyle.valueOf(parts[0].trim().toUpperCase()),
        CompactionScheduler.valueOf(parts[1].trim().toUpperCase()),
        parts.length == 3 ? LevelLayout.valueOf(parts[2].trim().toUpperCase()) : LevelLayout.LEVELED);
  }

  /** The combination's compaction settings, each part tuned as this class's methods say. */
  public CompactionSettings settings() {
    return settings(buffer());
  }

  /** The same with {@code buffer} as the buffer's settings (used only by BUFFER). */
  public CompactionSettings settings(BufferConfig buffer) {
    if (layout == LevelLayout.TWO_PHASE) {
      return CompactionSettings.twoPhase(
          style == CompactionStyle.BUFFER ? new CompactionSettings.Buffer(buffer) : new CompactionSettings.PlainMerge());
    }
    CompactionSettings.LeveledExecution execution = switch (style) {
      case TABLE -> CompactionSettings.Table.defaults();
      case BLOCK -> new CompactionSettings.Block(CompactionPriority.MIN_OVERLAP, blockCompaction(),
          BlockCompactionExecution.defaults().withLazyDeletionBytes(256 << 10));
      case BUFFER -> new CompactionSettings.Buffer(buffer);
    };
    return scheduler == CompactionScheduler.DLC
        ? CompactionSettings.leveled(execution, dlc())
        : CompactionSettings.leveled(execution);
  }

  /**
   * The block compression this combination runs with, and {@link #bottommostCompression()}: both
   * schedulers of each style compress (so a rotation that names a style compresses it), the two
   * codecs and a mix of them per level are spread across the styles, and dLSM's table baseline
   * keeps blocks as built, so that the reliability tests still write version 1 tables.
   */
  public Compression compression() {
    if (layout == LevelLayout.TWO_PHASE) {
      return style == CompactionStyle.TABLE ? Compression.none() : Compression.lz4();
    }
    return switch (style) {
      case TABLE -> scheduler == CompactionScheduler.IMMEDIATE ? Compression.lz4() : Compression.zstd();
      case BLOCK -> scheduler == CompactionScheduler.IMMEDIATE ? Compression.zstd() : Compression.lz4();
      case BUFFER -> scheduler == CompactionScheduler.IMMEDIATE ? Compression.lz4() : Compression.zstd();
    };
  }

  /** The bottommost level's: ZSTD (at level 1) under LZ4 on leveled levels, else {@link #compression()}. */
  public Compression bottommostCompression() {
    Compression c = compression();
    return layout == LevelLayout.LEVELED && c.codec() == Compression.Codec.LZ4 ? Compression.zstd(1) : c;
  }

  /**
   * Sets the compaction settings, the compression (and, for dLSM, its cache) on {@code b} and
   * nothing else, returning it.
   */
  public Options.Builder apply(Options.Builder b) {
    return apply(b, buffer());
  }

  /** The same with {@code buffer} as the buffer's settings (used only by BUFFER). */
  public Options.Builder apply(Options.Builder b, BufferConfig buffer) {
    b.compaction(settings(buffer));
    b.compression(compression()).bottommostCompression(bottommostCompression());
    if (style == CompactionStyle.BUFFER && layout == LevelLayout.TWO_PHASE) {
      // dLSM as the runner's cairn-dlsm builds it: flushed blocks cached, in an LRU block cache
      // (so the reliability tests run the LRU cache too; the other combinations keep W-TinyLFU).
      b.cacheFlushedBlocks(true).blockCacheEvictionPolicy(EvictionPolicy.LRU);
    }
    return b;
  }

  /** {@code base} with {@link #apply}. */
  public Options options(Options base) {
    return apply(base.toBuilder()).build();
  }

  /**
   * A tree small enough that a test's few thousand writes flush, merge and reach several levels:
   * 64 KiB memtables and base level, 16 KiB tables of 512-byte blocks, L0 merged at two files, a
   * 4 MiB block cache (the buffer and two-phase engine tests start from it).
   */
  public static Options.Builder tinyTree() {
    return Options.builder()
        .memtableBytes(64 << 10)
        .blockBytes(512)
        .targetFileBytes(16 << 10)
        .baseLevelBytes(64 << 10)
        .l0CompactionTrigger(2)
        .blockCacheBytes(4 << 20);
  }

  /**
   * {@link CompactionStyle#BLOCK}: block compaction forced on every level >= 1, so that every
   * compaction into an existing table appends merged blocks and a new footer to it (kills, power
   * cuts and faults then land mid-append), whatever the ratios; obsolete files deleted once 256
   * KiB of them add up (BlockDB's lazy deletion, scaled to the tests' tiny files).
   */
  public static BlockCompactionConfig blockCompaction() {
    return BlockCompactionConfig.defaults().withForceBlock(true);
  }

  /**
   * {@link CompactionStyle#BUFFER}: the LSbM compaction buffer with a 10 ms trim, a file kept
   * while half its blocks are cached, and 2 KiB trim units (a few blocks of the tests' small
   * tables), so that buffered merges, markers, carried buffers and trims all happen within a
   * test's first second. Cold arrivals are kept: the tests' merges feed the buffer whether or
   * not their reads warmed the inputs, and the space bound is the whole fifth whatever a miss
   * costs (here a page-cache read of a few microseconds, which would shrink it to nothing). The
   * freeze stays off, as by default. Scans read level files from the buffer where a merge proves
   * it exact (off by default, measured: docs/compaction.md "Range queries through the buffer"),
   * so every reliability test checks those scans too.
   */
  public static BufferConfig buffer() {
    return BufferConfig.defaults().withTrimIntervalMillis(10).withTrimCachedFraction(0.5).withTrimUnitBytes(2048)
        .withKeepColdArrivals(true).withFullBoundMissMicros(0).withScansThroughBuffer(true);
  }

  /**
   * {@link CompactionScheduler#DLC}: a 20 ms interval, and each get or scan counted as a gigabyte
   * of client I/O (Eq. 3), so that any interval with a read is a high load: L0 compactions are
   * held back and the bursty part (3 fresh L0 files) and full (5 L0 files, every second bursty
   * run) compactions run, at the throttle's 16 MB/s floor; two quiet intervals in a row (no read:
   * a flush, a manual compaction, a reopen, a write-only phase) make the load low again, and the
   * held-back compactions resume. Needs {@code l0SlowdownTrigger > 5}.
   */
  public static DlcConfig dlc() {
    return DlcConfig.builder()
        .intervalMillis(20)
        .estimator(DlcConfig.Estimator.WEIGHTED_OPS)
        .getCostBytes(1L << 30)
        .scanCostBytes(1L << 30)
        .ioLimitBytesPerSecond(64_000_000)
        .ioHighLimitBytesPerSecond(400_000)
        .ioLowLimitBytesPerSecond(200_000)
        .softness(2)
        .partTriggerFreshFiles(3)
        .fullTriggerL0Files(5)
        .partRunsBeforeFull(2)
        .minCompactionBytesPerSecond(16_000_000)
        .rateBufferBytesPerSecond(0)
        .build();
  }

  @Override
  public String toString() {
    return style + "/" + scheduler + (layout == LevelLayout.LEVELED ? "" : "/" + layout);
  }
}
