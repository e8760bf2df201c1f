/**
 * The LSbM compaction buffer's policy, as pure decisions over numbers and key ranges: Bloom
 * sizing, the freeze on repeated data, which buffer runs the trim may judge, and the cold-run
 * space budget. Core keeps the buffer's runs in its versions and executes what these decide.
 * Design: docs/compaction.md, "Compaction buffer".
 *
 * <p>Also the buffer kept in whole generations, for hosts that swap whole files in a read (the
 * HBase store engine, docs/adapters/hbase.md): the rows a compaction changed with their drop
 * masks ({@link dev.cairn.compaction.buffer.ChangedRows}, found by {@link
 * dev.cairn.compaction.buffer.RowChangeAccount}, composed by {@link
 * dev.cairn.compaction.buffer.GenerationRows}) and the generation trim ({@link
 * dev.cairn.compaction.buffer.GenerationTrim}).
 */
package dev.cairn.compaction.buffer;
