/**
 * The memtable: the sorted in-memory buffer of recent writes, keyed by internal key, that is
 * frozen and flushed to a level-0 table when it grows past the write buffer size.
 */
package dev.cairn.memtable;
