/**
 * Delayed L0 Compaction (DLC; Jin et al., EDBT 2021): a load model that estimates the clients'
 * device bandwidth from block-cache inserts ({@link dev.cairn.compaction.dlc.LoadModel}), a
 * scheduler that holds L0 compactions back under high load and runs bursty compactions when L0
 * grows under sustained high load ({@link dev.cairn.compaction.dlc.DlcScheduler}), and the
 * compaction rate of Eq. 2 ({@link dev.cairn.compaction.dlc.DlcConfig#compactionRate}). Pure: no
 * I/O, no threads; time and counters come in through {@link dev.cairn.compaction.dlc.DlcClock}
 * and {@link dev.cairn.compaction.dlc.LoadCounters}. See docs/dlc.md.
 */
package dev.cairn.compaction.dlc;
