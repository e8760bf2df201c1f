package dev.cairn.bench.micro;

import dev.cairn.key.InternalKey;
import dev.cairn.key.InternalKeyComparator;
import dev.cairn.key.ValueType;
import dev.cairn.table.block.Block;
import dev.cairn.table.block.BlockBuilder;
import dev.cairn.table.block.BlockIterator;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/** Seek to a random present key in one 4 KiB data block (16-byte user keys, 100-byte values). */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class BlockSeekBench {
  @Param({"1", "16"})
  int restartInterval;

  private Block block;
  private byte[][] targets;
  private int next;

  @Setup
  public void setup() {
    BlockBuilder b = new BlockBuilder(restartInterval, InternalKeyComparator.INSTANCE, 4096);
    List<byte[]> keys = new ArrayList<>();
    byte[] value = new byte[100];
    for (int i = 0; b.currentSizeEstimate() < 4096; i++) {
      byte[] key = InternalKey.encode(
          String.format("user%012d", i * 7L).getBytes(StandardCharsets.UTF_8), 1000 + i, ValueType.VALUE);
      b.add(key, value);
      keys.add(key);
    }
    block = new Block(ByteBuffer.wrap(b.finish()), "bench", 0);
    Random rnd = new Random(1);
    targets = new byte[1024][];
    for (int i = 0; i < targets.length; i++) {
      targets[i] = keys.get(rnd.nextInt(keys.size()));
    }
  }

  @Benchmark
  public byte[] seek() {
    BlockIterator it = block.iterator(InternalKeyComparator.INSTANCE);
    it.seek(targets[next++ & (targets.length - 1)]);
    return it.key();
  }
}
