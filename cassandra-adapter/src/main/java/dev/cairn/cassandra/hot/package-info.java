/**
 * Cache-aware input choice: which due compaction to run when some would rewrite hot files
 * ({@link dev.cairn.cassandra.hot.ColdFirstChooser}), over measured read rates ({@link
 * dev.cairn.cassandra.hot.ReadHeat}). For hosts that cannot keep a compaction buffer because
 * their reads always see every live file; docs/adapters/cassandra.md explains the use there.
 */
package dev.cairn.cassandra.hot;
