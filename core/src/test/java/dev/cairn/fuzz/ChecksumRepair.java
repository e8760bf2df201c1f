package dev.cairn.fuzz;

import dev.cairn.CorruptionException;
import dev.cairn.table.Footer;
import dev.cairn.table.block.Block;
import dev.cairn.table.block.BlockHandle;
import dev.cairn.table.block.BlockIterator;
import dev.cairn.table.block.BlockTrailer;
import dev.cairn.util.ByteSource;
import dev.cairn.util.Checksums;
import dev.cairn.util.Coding;
import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * Rewrites the checksums of fuzzed table and log bytes so that they verify. A CRC stops almost
 * every random mutation at the first check, so a fuzzer that only ever meets checksums never
 * reaches the decoders behind them; the "checksums repaired" fuzz targets call this first, so
 * that they exercise what a damaged-but-checksummed structure (a bug in a writer, or a collision)
 * would reach. Best effort: whatever cannot be located is left as it is.
 */
final class ChecksumRepair {
  private static final int LOG_BLOCK = 32 * 1024;
  private static final int LOG_HEADER = 7;

  private ChecksumRepair() {}

  /**
   * Repairs, in place, the footer CRC of a table whose footer ends the file, the trailers of the
   * blocks it names, and the trailers of the data blocks its index names.
   */
  static void table(byte[] file) {
    if (file.length < Footer.SIZE) {
      return;
    }
    int footerAt = file.length - Footer.SIZE;
    Coding.putFixed32(file, footerAt + 60, Checksums.mask(Checksums.crc32c(file, footerAt, 60)));
    BlockHandle index = null;
    for (int at = 0; at < 48; at += 16) {
      BlockHandle h = fixedHandle(file, footerAt + at, footerAt);
      if (h != null) {
        blockTrailer(file, h);
        if (at == 0) {
          index = h;
        }
      }
    }
    if (index == null) {
      return;
    }
    try (BlockIterator it = new Block(ByteBuffer.wrap(file, (int) index.offset(), (int) index.size()),
        "repair", index.offset()).iterator(Arrays::compareUnsigned)) {
      int blocks = 0;
      for (it.seekToFirst(); it.isValid() && blocks < 10_000; it.next(), blocks++) {
        byte[] v = it.value();
        BlockHandle h = BlockHandle.decode(new ByteSource(v, "repair", 0));
        if (h.offset() + h.size() + BlockTrailer.SIZE <= footerAt) {
          blockTrailer(file, h);
        }
      }
    } catch (CorruptionException damagedIndex) {
      // Leave the remaining data blocks as they are.
    }
  }

  private static BlockHandle fixedHandle(byte[] file, int at, int limit) {
    long offset = Coding.getFixed64(file, at);
    long size = Coding.getFixed64(file, at + 8);
    if (offset < 0 || size < 0 || offset > limit || size > limit - offset - BlockTrailer.SIZE) {
      return null;
    }
    return new BlockHandle(offset, size);
  }

  private static void blockTrailer(byte[] file, BlockHandle h) {
    int off = (int) h.offset();
    int len = (int) h.size();
    int type = file[off + len] & 0xff;
    Coding.putFixed32(file, off + len + 1, BlockTrailer.maskedCrc(file, off, len, type));
  }

  /**
   * Repairs, in place, the CRC of every log fragment whose header and payload lie inside its
   * 32 KiB block; all-zero headers (padding, preallocated tails) are left alone.
   */
  static void log(byte[] file) {
    for (int blockStart = 0; blockStart < file.length; blockStart += LOG_BLOCK) {
      int blockEnd = Math.min(file.length, blockStart + LOG_BLOCK);
      int pos = blockStart;
      while (blockEnd - pos >= LOG_HEADER) {
        int length = (file[pos + 4] & 0xff) | (file[pos + 5] & 0xff) << 8;
        int type = file[pos + 6] & 0xff;
        if (length == 0 && type == 0) {
          break;
        }
        if (pos + LOG_HEADER + length > blockEnd) {
          break;
        }
        Coding.putFixed32(file, pos, Checksums.mask(Checksums.crc32c(file, pos + 6, 1 + length)));
        pos += LOG_HEADER + length;
      }
    }
  }
}
