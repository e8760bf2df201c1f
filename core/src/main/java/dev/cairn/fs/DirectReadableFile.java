package dev.cairn.fs;

import com.sun.nio.file.ExtendedOpenOption;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * A file read with O_DIRECT: every read bypasses the page cache and costs device I/O, which is
 * what a block-cache miss costs on a database larger than memory. O_DIRECT requires the file
 * offset, length and buffer address to be aligned to the device block size, so each read is
 * widened to aligned bounds into an aligned scratch buffer and the requested range copied out.
 */
final class DirectReadableFile implements ReadableFile {
  private final InterruptSafeReader ch;
  private final IoStats stats;
  private final int alignment;

  private DirectReadableFile(InterruptSafeReader ch, IoStats stats, int alignment) {
    this.ch = ch;
    this.stats = stats;
    this.alignment = alignment;
  }

  static DirectReadableFile open(Path path, IoStats stats) throws IOException {
    int alignment = (int) Math.max(4096, java.nio.file.Files.getFileStore(path).getBlockSize());
    InterruptSafeReader ch = new InterruptSafeReader(path, StandardOpenOption.READ, ExtendedOpenOption.DIRECT);
    return new DirectReadableFile(ch, stats, alignment);
  }

  @Override
  public int read(long position, ByteBuffer dst, IoTag tag) throws IOException {
    int want = dst.remaining();
    if (want == 0) {
      return 0;
    }
    long start = position - (position % alignment);
    long end = position + want;
    long alignedEnd = ((end + alignment - 1) / alignment) * alignment;
    int span = (int) (alignedEnd - start);
    ByteBuffer scratch = ByteBuffer.allocateDirect(span + alignment).alignedSlice(alignment);
    scratch.limit(span);
    int got = ch.read(scratch, start);
    stats.recordRead(tag, got);
    int skip = (int) (position - start);
    int available = Math.max(0, Math.min(want, got - skip));
    scratch.flip();
    scratch.position(skip).limit(skip + available);
    dst.put(scratch);
    return available;
  }

  @Override
  public long size() throws IOException {
    return ch.size();
  }

  @Override
  public void close() throws IOException {
    ch.close();
  }
}
