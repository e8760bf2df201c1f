package dev.cairn.hbase;

import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;
import org.apache.hadoop.hbase.io.hfile.BlockCache;
import org.apache.hadoop.hbase.io.hfile.CachedBlock;

/**
 * The bytes each store file has in a block cache, from one walk over every cached block: a cost
 * that grows with the cache (an 8 GiB cache of 64 KiB blocks holds 131,072 of them), so callers
 * walk on a background thread and only when a picture is needed.
 */
final class CacheWalk {
  private CacheWalk() {}

  /** Cached bytes by store file name (the block cache keys blocks by file name). */
  static Map<String, Long> bytesByFile(BlockCache cache) {
    Map<String, Long> bytes = new HashMap<>();
    for (Iterator<CachedBlock> it = cache.iterator(); it.hasNext(); ) {
      CachedBlock block = it.next();
      bytes.merge(block.getFilename(), block.getSize(), Long::sum);
    }
    return bytes;
  }
}
