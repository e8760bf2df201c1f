package dev.cairn.table.cache;

import dev.cairn.fs.IoTag;
import dev.cairn.fs.ReadableFile;
import java.io.IOException;
import java.nio.ByteBuffer;

/** A readable file that passes every call to another: tests override what they observe or break. */
class ForwardingReadableFile implements ReadableFile {
  private final ReadableFile delegate;

  ForwardingReadableFile(ReadableFile delegate) {
    this.delegate = delegate;
  }

  @Override
  public int read(long position, ByteBuffer dst, IoTag tag) throws IOException {
    return delegate.read(position, dst, tag);
  }

  @Override
  public long size() throws IOException {
    return delegate.size();
  }

  @Override
  public int directReadAlignment() {
    return delegate.directReadAlignment();
  }

  @Override
  public void close() throws IOException {
    delegate.close();
  }
}
