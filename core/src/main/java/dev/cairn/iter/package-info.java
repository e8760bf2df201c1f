/**
 * Iterators over internal entries and what a merged stream of them means to its reader: {@link
 * dev.cairn.iter.MergingIterator} (memtables, level-0 tables and levels into one stream) and
 * {@link dev.cairn.iter.ConcatenatingIterator} (the non-overlapping tables of one level), all
 * following the {@link dev.cairn.iter.InternalIterator} contract; {@link
 * dev.cairn.iter.DbIterator} gives a user the live keys at a snapshot, and {@link
 * dev.cairn.iter.CompactionOutputIterator} keeps only the entries some snapshot (or the latest
 * state) can still see when a flush or compaction writes its output.
 */
package dev.cairn.iter;
