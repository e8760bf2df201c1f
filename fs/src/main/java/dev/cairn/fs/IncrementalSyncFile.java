package dev.cairn.fs;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.Set;

/**
 * A {@link WritableFile} that syncs each time another {@code bytesPerSync} bytes have been
 * appended since its last sync (RocksDB's {@code bytes_per_sync}). A compaction output's bytes
 * then reach the device while it is written, a few at a time, instead of all in the one sync that
 * finishes it: the page cache does not fill with one output's dirty pages, and the final sync,
 * which a large flush or compaction would otherwise spend a burst of device time on, finds
 * little left to write. Java has no {@code sync_file_range}, so each step is a sync (fsync) of the
 * file, which writes only the pages dirtied since the last one.
 *
 * <p>Syncs never run more often than every {@code bytesPerSync} bytes, and never cost
 * correctness: a file synced early is still synced again when its writer finishes it.
 */
public final class IncrementalSyncFile extends ForwardingFileSystem.ForwardingWritableFile {
  /** The purposes whose files are flush, compaction or buffer outputs: the ones synced as they grow. */
  private static final Set<IoPurpose> OUTPUTS = Set.of(IoPurpose.FLUSH, IoPurpose.COMPACTION, IoPurpose.BUFFER);

  private final long bytesPerSync;
  private long unsyncedBytes;

  private IncrementalSyncFile(WritableFile file, long bytesPerSync) {
    super(file);
    this.bytesPerSync = bytesPerSync;
  }

  /**
   * {@code fs} with every output file it creates or reopens for appending (a tag of purpose
   * flush, compaction or buffer) synced every {@code bytesPerSync} bytes; the WAL and the
   * manifest, which sync themselves, are left alone. {@code fs} itself when 0 (off). The engine
   * installs it once, so that every output path (table outputs, block appends, part rewrites)
   * gets it without asking.
   */
  public static FileSystem syncingOutputs(FileSystem fs, long bytesPerSync) {
    check(bytesPerSync);
    if (bytesPerSync == 0) {
      return fs;
    }
    return new ForwardingFileSystem(fs) {
      @Override
      public WritableFile create(Path path, IoTag tag) throws IOException {
        return wrapOutput(super.create(path, tag), tag);
      }

      @Override
      public WritableFile openForAppend(Path path, long length, IoTag tag) throws IOException {
        return wrapOutput(super.openForAppend(path, length, tag), tag);
      }

      private WritableFile wrapOutput(WritableFile file, IoTag tag) {
        return OUTPUTS.contains(tag.purpose()) ? new IncrementalSyncFile(file, bytesPerSync) : file;
      }
    };
  }

  private static void check(long bytesPerSync) {
    if (bytesPerSync < 0) {
      throw new IllegalArgumentException("bytesPerSync must be 0 (off) or positive, got " + bytesPerSync);
    }
  }

  @Override
  public void append(byte[] data, int off, int len) throws IOException {
    super.append(data, off, len);
    appended(len);
  }

  @Override
  public void append(ByteBuffer data) throws IOException {
    int len = data.remaining();
    super.append(data);
    appended(len);
  }

  private void appended(long len) throws IOException {
    unsyncedBytes += len;
    if (unsyncedBytes >= bytesPerSync) {
      sync();
    }
  }

  @Override
  public void sync() throws IOException {
    super.sync();
    unsyncedBytes = 0;
  }
}
