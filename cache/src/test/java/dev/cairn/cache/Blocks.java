package dev.cairn.cache;

import java.nio.ByteBuffer;
import java.util.SplittableRandom;

/** Test block contents that are a function of their key, so any reader can check what it got. */
final class Blocks {
  private Blocks() {}

  /** {@code size} bytes determined by (fileNumber, offset, salt). */
  static byte[] bytes(long fileNumber, long offset, long salt, int size) {
    SplittableRandom random = new SplittableRandom(fileNumber * 1_000_003L ^ offset * 31 ^ salt);
    byte[] b = new byte[size];
    random.nextBytes(b);
    return b;
  }

  static byte[] bytes(long fileNumber, long offset, int size) {
    return bytes(fileNumber, offset, 0, size);
  }

  static ByteBuffer buffer(byte[] b) {
    return ByteBuffer.wrap(b);
  }

  /** A copy of a block's contents. */
  static byte[] read(CachedBlock block) {
    ByteBuffer view = block.contents();
    byte[] b = new byte[view.remaining()];
    view.get(b);
    return b;
  }
}
