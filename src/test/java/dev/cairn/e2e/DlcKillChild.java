package dev.cairn.e2e;

import dev.cairn.Options;
import dev.cairn.compaction.dlc.DlcConfig;

/**
 * The child process of {@link DlcKillTest}: {@link KillChild}'s synced writes and filler under
 * Delayed L0 Compaction, plus a get per key. Each get counts as a gigabyte of client I/O (Eq. 3),
 * so the load model sees a high load within an interval or two and DLC holds L0 back and runs
 * its bursty part and full compactions while the parent kills the process at a random moment.
 */
public final class DlcKillChild {
  private DlcKillChild() {}

  static Options options() {
    return Options.builder()
        .memtableBytes(64 << 10)
        .targetFileBytes(32 << 10)
        .baseLevelBytes(128 << 10)
        .l0CompactionTrigger(2)
        .compactionScheduler(Options.CompactionScheduler.DLC)
        .dlc(DlcConfig.builder()
            .intervalMillis(20)
            .estimator(DlcConfig.Estimator.WEIGHTED_OPS)
            .getCostBytes(1L << 30)
            .partTriggerFreshFiles(3)
            .fullTriggerL0Files(6)
            .partRunsBeforeFull(2)
            .build())
        .build();
  }

  public static void main(String[] args) {
    KillChild.run(args, options(), KillChild.NOTHING, (db, i) -> {
      KillChild.filler(db, i, i, 20);
      db.get(KillTest.key(i));
    });
  }
}
