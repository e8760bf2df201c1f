/**
 * Cairn, an embedded LSM-tree key-value engine. The API is {@code dev.cairn} (open a database with
 * {@link dev.cairn.Cairn}) and {@code dev.cairn.config}; every other package is the engine's inside
 * and may change in any release.
 *
 * <p>The options name types of the file system, cache and compaction modules (a {@code FileSystem}
 * to run on, an eviction policy, the planners' settings), so those modules are read by whoever
 * reads this one.
 */
module dev.cairn {
  requires transitive dev.cairn.cache;
  requires transitive dev.cairn.compaction;
  requires transitive dev.cairn.fs;
  // StatsMBean: a database's Stats on the platform MBean server (no JMX type in the API).
  requires java.management;
  // The table cache's bound derived from the process's open-file limit (TableCacheBounds);
  // without the module the limit counts as unknown.
  requires static jdk.management;
  // The block codecs' libraries: optional, each needed only by a database that uses its codec
  // (dev.cairn.table.codec.BlockCodecs says so when it is missing).
  requires static org.lz4.java;
  requires static com.github.luben.zstd_jni;

  exports dev.cairn;
  exports dev.cairn.config;
}
