/**
 * Compaction planning: what to compact, never how bytes move. A {@link
 * dev.cairn.compaction.CompactionPicker} reads an immutable {@link
 * dev.cairn.model.LsmShape} and answers with a {@link
 * dev.cairn.compaction.CompactionPlan}; core (or a host adapter) executes it. This module does no
 * I/O and does not depend on core. See {@code docs/compaction.md}.
 */
package dev.cairn.compaction;
