/**
 * Iterators over internal entries and the combinators that build the read path from them: {@link
 * dev.cairn.iter.MergingIterator} (memtables, level-0 tables and levels into one stream) and
 * {@link dev.cairn.iter.ConcatenatingIterator} (the non-overlapping tables of one level). All
 * follow the {@link dev.cairn.iter.InternalIterator} contract.
 */
package dev.cairn.iter;
