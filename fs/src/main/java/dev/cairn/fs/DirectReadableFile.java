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
 * widened to aligned bounds into an aligned scratch buffer and the requested range copied out,
 * unless it is aligned already (a read-ahead buffer, {@link #directReadAlignment()}): then it
 * lands in the caller's buffer with no copy.
 *
 * <p>The scratch buffer is kept per thread up to {@link #KEPT_SCRATCH_BYTES}: allocating direct
 * memory for every block a point read misses costs a zeroing and a cleaner registration each time,
 * and can make the JDK force a GC when direct memory runs short.
 */
final class DirectReadableFile implements ReadableFile {
  /** Largest scratch buffer a thread keeps between reads; larger reads allocate their own. */
  static final int KEPT_SCRATCH_BYTES = 64 << 10;

  private static final ThreadLocal<ByteBuffer> SCRATCH = new ThreadLocal<>();

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
    if (isAligned(position, dst)) {
      int got = ch.read(dst, position);
      stats.recordRead(tag, got);
      return got;
    }
    long start = position - (position % alignment);
    long end = position + want;
    long alignedEnd = ((end + alignment - 1) / alignment) * alignment;
    int span = (int) (alignedEnd - start);
    ByteBuffer scratch = scratch(span);
    int got = ch.read(scratch, start);
    stats.recordRead(tag, got);
    int skip = (int) (position - start);
    int available = Math.max(0, Math.min(want, got - skip));
    scratch.flip();
    scratch.position(skip).limit(skip + available);
    dst.put(scratch);
    return available;
  }

  /** Whether O_DIRECT can read {@code dst.remaining()} bytes at {@code position} into dst itself. */
  private boolean isAligned(long position, ByteBuffer dst) {
    return dst.isDirect()
        && position % alignment == 0
        && dst.remaining() % alignment == 0
        && dst.alignmentOffset(dst.position(), alignment) == 0;
  }

  /** An aligned buffer of {@code span} bytes, position 0 and limit span: the thread's if it fits. */
  private ByteBuffer scratch(int span) {
    if (span > KEPT_SCRATCH_BYTES) {
      return allocateAligned(span, alignment);
    }
    ByteBuffer kept = SCRATCH.get();
    if (kept == null || kept.capacity() < KEPT_SCRATCH_BYTES
        || kept.alignmentOffset(0, alignment) != 0) {
      kept = allocateAligned(KEPT_SCRATCH_BYTES, alignment);
      SCRATCH.set(kept);
    }
    return kept.clear().limit(span);
  }

  /** A direct buffer of {@code bytes} whose address is a multiple of {@code alignment}. */
  private static ByteBuffer allocateAligned(int bytes, int alignment) {
    return ByteBuffer.allocateDirect(bytes + alignment).alignedSlice(alignment).limit(bytes);
  }

  @Override
  public int directReadAlignment() {
    return alignment;
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
