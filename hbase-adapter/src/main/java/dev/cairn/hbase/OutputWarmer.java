package dev.cairn.hbase;

import java.io.IOException;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.nio.ByteBuffer;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.PrivateCellUtil;
import org.apache.hadoop.hbase.io.encoding.DataBlockEncoding;
import org.apache.hadoop.hbase.io.hfile.BlockType;
import org.apache.hadoop.hbase.io.hfile.BlockWithScanInfo;
import org.apache.hadoop.hbase.io.hfile.HFile;
import org.apache.hadoop.hbase.io.hfile.HFileBlock;
import org.apache.hadoop.hbase.regionserver.HStoreFile;
import org.apache.hadoop.hbase.regionserver.KeyValueScanner;
import org.apache.hadoop.hbase.regionserver.StoreFileScanner;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A warm hand-over: before the trim retires a generation whose leaves still serve reads, loads
 * into the block cache the output's data blocks under the rows recently read through the leaves
 * ({@link RecentRows}), most read first, up to a budget (the leaves' cached bytes: the hot data
 * moves, it does not grow). Without it the reads that move to the output all miss at once, the
 * deepest dips of a buffered store's hit ratio.
 *
 * <p>Blocks are read as HBase's prefetch-on-open reads them, without counting in the cache's
 * hit and miss figures (they are not a client's lookups; the stats count them apart), and each
 * twice: the second read finds the block cached and promotes it to the cache's multi-access part,
 * where the leaves' hot blocks are, so the hand-over's blocks are not the first evicted before the
 * reads arrive. The index blocks on the way are cached as every read caches them.
 */
final class OutputWarmer {
  private static final Logger LOG = LoggerFactory.getLogger(OutputWarmer.class);

  /**
   * HBase's block index lookup, {@code BlockIndexReader.loadDataBlockWithScanInfo}: public, in a
   * package-private class, so reached by reflection (the host version is pinned); null when this
   * HBase has no such method, and hand-overs are then cold.
   */
  private static final Method LOAD_DATA_BLOCK = findLoadDataBlock();

  /** What a hand-over loaded: distinct data blocks and their bytes on disk. */
  record Warmed(int blocks, long bytes) {
    static final Warmed NONE = new Warmed(0, 0);
  }

  private OutputWarmer() {}

  /**
   * Loads the blocks of {@code output} holding {@code rows} (in that order) until {@code
   * budgetBytes} are loaded.
   */
  static Warmed warm(HStoreFile output, List<byte[]> rows, long budgetBytes) throws IOException {
    if (rows.isEmpty() || budgetBytes <= 0 || LOAD_DATA_BLOCK == null) {
      return Warmed.NONE;
    }
    // An open scanner holds the file: the discharger archives no file a read holds.
    StoreFileScanner hold = output.getPreadScanner(false, Long.MAX_VALUE, 0, false);
    try {
      HFile.Reader reader = output.getReader().getHFileReader();
      Object index = reader.getDataBlockIndexReader();
      HFile.CachingBlockReader uncounted = uncounted(reader);
      Set<ByteBuffer> loaded = new HashSet<>();
      long bytes = 0;
      for (byte[] row : rows) {
        if (bytes >= budgetBytes) {
          break;
        }
        // The last key on the row lands in the block holding the row's last cell (the first key
        // on the row could land in the block before).
        Cell key = PrivateCellUtil.createLastOnRow(row);
        BlockWithScanInfo found = load(index, key, uncounted);
        if (found == null) {
          continue;
        }
        try {
          // A block is known by the first key of the block after it.
          Cell next = found.getNextIndexedKey();
          ByteBuffer id = next == null || next == KeyValueScanner.NO_NEXT_INDEXED_KEY ? ByteBuffer.allocate(0)
              : ByteBuffer.wrap(PrivateCellUtil.getCellKeySerializedAsKeyValueKey(next));
          if (loaded.add(id)) {
            bytes += found.getHFileBlock().getOnDiskSizeWithHeader();
            BlockWithScanInfo again = load(index, key, uncounted); // cached now: promotes it
            if (again != null) {
              again.getHFileBlock().release();
            }
          }
        } finally {
          found.getHFileBlock().release();
        }
      }
      return new Warmed(loaded.size(), bytes);
    } finally {
      hold.close();
    }
  }

  private static BlockWithScanInfo load(Object index, Cell key, HFile.CachingBlockReader reader) throws IOException {
    try {
      return (BlockWithScanInfo) LOAD_DATA_BLOCK.invoke(index, key, null, true, true, false, null, reader);
    } catch (InvocationTargetException e) {
      Throwable cause = e.getCause();
      if (cause instanceof IOException io) {
        throw io;
      }
      throw new IOException("block index lookup failed", cause);
    } catch (IllegalAccessException e) {
      throw new IOException("block index lookup not accessible", e);
    }
  }

  /** {@code reader}, caching every block it reads and counting none in the cache's figures. */
  private static HFile.CachingBlockReader uncounted(HFile.Reader reader) {
    return new HFile.CachingBlockReader() {
      @Override
      public HFileBlock readBlock(long offset, long onDiskBlockSize, boolean cacheBlock, boolean pread,
          boolean isCompaction, boolean updateCacheMetrics, BlockType expectedBlockType,
          DataBlockEncoding expectedDataBlockEncoding) throws IOException {
        return reader.readBlock(offset, onDiskBlockSize, true, true, false, false, expectedBlockType,
            expectedDataBlockEncoding);
      }

      @Override
      public HFileBlock readBlock(long offset, long onDiskBlockSize, boolean cacheBlock, boolean pread,
          boolean isCompaction, boolean updateCacheMetrics, BlockType expectedBlockType,
          DataBlockEncoding expectedDataBlockEncoding, boolean cacheOnly) throws IOException {
        return reader.readBlock(offset, onDiskBlockSize, true, true, false, false, expectedBlockType,
            expectedDataBlockEncoding, cacheOnly);
      }
    };
  }

  private static Method findLoadDataBlock() {
    try {
      Class<?> indexReader = Class.forName("org.apache.hadoop.hbase.io.hfile.HFileBlockIndex$BlockIndexReader");
      Method m = indexReader.getMethod("loadDataBlockWithScanInfo", Cell.class, HFileBlock.class, boolean.class,
          boolean.class, boolean.class, DataBlockEncoding.class, HFile.CachingBlockReader.class);
      m.setAccessible(true);
      return m;
    } catch (ReflectiveOperationException | RuntimeException e) {
      LOG.warn("cairn: this HBase has no block index lookup the buffer's warm hand-over can use; hand-overs are cold",
          e);
      return null;
    }
  }
}
