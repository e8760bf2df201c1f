/**
 * The immutable LSM shape model that compaction planning reads: {@link
 * dev.cairn.model.FileDescriptor files}, {@link dev.cairn.model.SortedRun
 * sorted runs}, {@link dev.cairn.model.LevelShape levels}, and the whole {@link dev.cairn.model.LsmShape shape} with its compaction
 * pointers; and the compaction buffer's model ({@link dev.cairn.model.BufferRun buffer
 * runs} of {@link dev.cairn.model.BufferEntry entries} over any {@link
 * dev.cairn.model.TableFile}), which the buffer's decisions read level by level.
 *
 * <p>Core builds it from its current version; the Cassandra and HBase adapters build it from
 * their hosts' SSTables and store files. Nothing here does I/O or knows a path. User keys are
 * byte arrays compared unsigned ({@link dev.cairn.model.UserKeyOrder}); every array
 * is copied on the way in and out. See {@code docs/compaction.md}.
 */
package dev.cairn.model;
