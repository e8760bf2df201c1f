package dev.cairn.table;

import dev.cairn.fs.IoTag;
import dev.cairn.fs.ReadableFile;
import dev.cairn.fs.fake.InMemoryFile;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/**
 * A file that records every read as {position, length}, and says it bypasses the page cache when
 * its alignment is above zero (which makes every iterator read ahead).
 */
final class RecordingFile implements ReadableFile {
  final InMemoryFile file;
  final int alignment;
  final List<long[]> reads = new ArrayList<>();

  RecordingFile(InMemoryFile file, int alignment) {
    this.file = file;
    this.alignment = alignment;
  }

  List<Integer> lengths() {
    List<Integer> out = new ArrayList<>();
    reads.forEach(r -> out.add((int) r[1]));
    return out;
  }

  @Override
  public int read(long position, ByteBuffer dst, IoTag tag) {
    reads.add(new long[] {position, dst.remaining()});
    return file.read(position, dst, tag);
  }

  @Override
  public long size() {
    return file.size();
  }

  @Override
  public int directReadAlignment() {
    return alignment;
  }

  @Override
  public void close() {}
}
