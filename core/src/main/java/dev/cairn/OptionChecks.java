package dev.cairn;

import dev.cairn.compaction.dlc.DlcConfig;
import dev.cairn.config.CompactionSettings;

/** The checks {@link Options.Builder#build()} makes, each naming the option it refuses. */
final class OptionChecks {
  private OptionChecks() {}

  static void present(String name, Object value) {
    if (value == null) {
      throw new IllegalArgumentException("option " + name + " must not be null");
    }
  }

  /** Bursty compaction must act before the stall triggers do: stalls are the last resort. */
  static void dlcActsBeforeStalls(CompactionSettings compaction, int l0SlowdownTrigger) {
    if (compaction instanceof CompactionSettings.Leveled leveled
        && leveled.scheduler() instanceof CompactionSettings.Dlc dlc) {
      DlcConfig c = dlc.config();
      range("dlc.fullTriggerL0Files", c.fullTriggerL0Files(), 2, l0SlowdownTrigger - 1);
      range("dlc.partTriggerFreshFiles", c.partTriggerFreshFiles(), 2, c.fullTriggerL0Files() - 1);
    }
  }

  /** A TTL is a whole number of seconds that fits the write time, and takes no merges. */
  static void ttl(java.time.Duration ttl, MergeOperator mergeOperator) {
    if (ttl == null) {
      return;
    }
    range("ttl (seconds)", ttl.getSeconds(), 1, Integer.MAX_VALUE);
    if (mergeOperator != null) {
      throw new IllegalArgumentException("options ttl and mergeOperator cannot be combined: a database with a"
          + " time to live takes no merges");
    }
  }

  static void range(String name, long value, long min, long max) {
    if (value < min || value > max) {
      throw new IllegalArgumentException(
          "option " + name + " = " + value + " is out of range [" + min + ", " + max + "]");
    }
  }
}
