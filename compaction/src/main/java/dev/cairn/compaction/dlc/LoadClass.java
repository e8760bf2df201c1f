package dev.cairn.compaction.dlc;

/** How busy the clients keep the device, as DLC's load model classifies it (section 3.2.2). */
public enum LoadClass {
  /** Client I/O stayed below {@code io_low_limit} for {@code softness} intervals: compact freely. */
  LOW,
  /** Client I/O went above {@code io_high_limit}: delay L0 compactions. */
  HIGH
}
