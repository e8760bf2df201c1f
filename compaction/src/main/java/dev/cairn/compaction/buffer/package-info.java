/**
 * The LSbM compaction buffer's policy, as pure decisions over numbers and key ranges: Bloom
 * sizing, the freeze on repeated data, which buffer runs the trim may judge, and the cold-run
 * space budget. Core keeps the buffer's runs in its versions and executes what these decide.
 * Design: docs/compaction.md, "Compaction buffer". The buffer kept in whole generations, which
 * only the HBase store engine uses, is that adapter's ({@code dev.cairn.hbase.buffer}).
 */
package dev.cairn.compaction.buffer;
