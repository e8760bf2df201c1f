/**
 * BlockDB's selective compaction (Wang et al., ICDE 2022, Alg. 4), as pure decisions: for every
 * target table of a compaction, whether to rewrite it (table compaction) or to append its dirty
 * blocks (block compaction). Core measures the inputs (dirty blocks, valid bytes) and executes.
 * Design and defaults: docs/compaction.md, "Block compaction".
 */
package dev.cairn.compaction.block;
