/**
 * What a merged stream of internal entries means to its reader: {@link dev.cairn.read.DbIterator}
 * gives a user the live keys at a snapshot; {@link dev.cairn.read.CompactionFilterIterator} keeps
 * only the entries some snapshot (or the latest state) can still see when a flush or compaction
 * writes its output.
 */
package dev.cairn.read;
