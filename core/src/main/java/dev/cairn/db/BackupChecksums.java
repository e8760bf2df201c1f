package dev.cairn.db;

import dev.cairn.fs.FileSystem;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.CRC32C;

/** A file's size, CRC-32C, and the CRC-32C of each {@link BackupRecord#CHUNK_BYTES} chunk. */
record BackupChecksums(long size, int crc, List<Integer> chunkCrcs) {
  static BackupChecksums of(FileSystem fs, Path file, long length) throws IOException {
    Builder sums = new Builder();
    CopyFiles.readChunks(fs, file, length, sums::add);
    return sums.build(length);
  }

  /** Takes whole chunks in order (only the last may be short). */
  static final class Builder {
    private final CRC32C whole = new CRC32C();
    private final List<Integer> chunks = new ArrayList<>();

    void add(ByteBuffer chunk) {
      CRC32C one = new CRC32C();
      one.update(chunk.duplicate());
      whole.update(chunk);
      chunks.add((int) one.getValue());
    }

    BackupChecksums build(long size) {
      if (chunks.isEmpty()) {
        chunks.add((int) new CRC32C().getValue());
      }
      return new BackupChecksums(size, (int) whole.getValue(), chunks);
    }
  }
}
