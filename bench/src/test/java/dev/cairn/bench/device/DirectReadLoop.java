package dev.cairn.bench.device;

import com.sun.nio.file.ExtendedOpenOption;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.SplittableRandom;

/**
 * A child process for {@link ReadIopsCapTest}: reads {@code COUNT} 4 KiB blocks of {@code FILE} at
 * random aligned offsets with O_DIRECT (so every read goes to the device) and prints the seconds
 * the reads took.
 */
public final class DirectReadLoop {
  static final int BLOCK = 4096;

  private DirectReadLoop() {}

  public static void main(String[] args) throws IOException {
    Path file = Path.of(args[0]);
    int count = Integer.parseInt(args[1]);
    ByteBuffer buffer = ByteBuffer.allocateDirect(2 * BLOCK).alignedSlice(BLOCK).limit(BLOCK);
    SplittableRandom random = new SplittableRandom(7);
    try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ, ExtendedOpenOption.DIRECT)) {
      long blocks = channel.size() / BLOCK;
      long start = System.nanoTime();
      for (int i = 0; i < count; i++) {
        buffer.clear().limit(BLOCK);
        channel.read(buffer, random.nextLong(blocks) * BLOCK);
      }
      System.out.println((System.nanoTime() - start) / 1e9);
    }
  }
}
