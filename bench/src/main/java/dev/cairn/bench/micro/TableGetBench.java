package dev.cairn.bench.micro;

import dev.cairn.cache.BlockCache;
import dev.cairn.cache.CacheStats;
import dev.cairn.cache.CachedBlock;
import dev.cairn.fs.IoTag;
import dev.cairn.fs.LocalFileSystem;
import dev.cairn.fs.WritableFile;
import dev.cairn.key.InternalKey;
import dev.cairn.key.LookupResult;
import dev.cairn.key.ValueType;
import dev.cairn.table.TableBuilder;
import dev.cairn.table.TableOptions;
import dev.cairn.table.TableReader;
import dev.cairn.table.TableSummary;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Point lookups on one open table (100k entries, 4 KiB blocks, 10 Bloom bits/key) whose blocks are
 * all cached: the filter, index and block search costs without I/O. Uses a minimal on-heap cache so
 * the figure does not depend on the off-heap cache's implementation.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class TableGetBench {
  private static final int KEYS = 100_000;
  private Path dir;
  private TableReader reader;
  private byte[][] present;
  private byte[][] absent;
  private int next;

  @Setup(Level.Trial)
  public void setup() throws IOException {
    dir = Files.createTempDirectory("cairn-table-bench");
    LocalFileSystem fs = new LocalFileSystem();
    Path path = dir.resolve("000001.sst");
    TableSummary summary;
    try (WritableFile f = fs.create(path, IoTag.FLUSH)) {
      TableBuilder b = new TableBuilder(f, TableOptions.DEFAULT);
      byte[] value = new byte[100];
      for (int i = 0; i < KEYS; i++) {
        b.add(InternalKey.encode(key("user", i), i + 1, ValueType.VALUE), value);
      }
      summary = b.finish();
      f.sync();
    }
    reader = TableReader.open(fs.openReadable(path), "000001.sst", 1, summary.footerOffset(),
        new MapBlockCache());
    Random rnd = new Random(1);
    present = new byte[1024][];
    absent = new byte[1024][];
    for (int i = 0; i < present.length; i++) {
      present[i] = key("user", rnd.nextInt(KEYS));
      absent[i] = key("miss", rnd.nextInt(KEYS));
      reader.get(present[i], InternalKey.MAX_SEQUENCE, true); // warm the cache
    }
  }

  private static byte[] key(String prefix, int i) {
    return String.format("%s%012d", prefix, i).getBytes(StandardCharsets.UTF_8);
  }

  @Benchmark
  public LookupResult getPresent() {
    return reader.get(present[next++ & 1023], InternalKey.MAX_SEQUENCE, true);
  }

  @Benchmark
  public LookupResult getAbsent() {
    return reader.get(absent[next++ & 1023], InternalKey.MAX_SEQUENCE, true);
  }

  @TearDown(Level.Trial)
  public void tearDown() throws IOException {
    reader.close();
    try (var files = Files.list(dir)) {
      for (Path p : (Iterable<Path>) files::iterator) {
        Files.delete(p);
      }
    }
    Files.delete(dir);
  }

  /** An unbounded on-heap cache; enough for a benchmark whose working set is fixed. */
  private static final class MapBlockCache implements BlockCache {
    private record Key(long file, long offset) {}

    private final ConcurrentHashMap<Key, byte[]> blocks = new ConcurrentHashMap<>();

    private static CachedBlock handle(byte[] bytes) {
      return new CachedBlock() {
        @Override
        public ByteBuffer contents() {
          return ByteBuffer.wrap(bytes).asReadOnlyBuffer();
        }

        @Override
        public int size() {
          return bytes.length;
        }

        @Override
        public void close() {}
      };
    }

    @Override
    public CachedBlock lookup(long fileNumber, long offset) {
      byte[] b = blocks.get(new Key(fileNumber, offset));
      return b == null ? null : handle(b);
    }

    @Override
    public CachedBlock lookupQuietly(long fileNumber, long offset) {
      return lookup(fileNumber, offset);
    }

    @Override
    public CachedBlock insert(long fileNumber, long offset, ByteBuffer contents) {
      byte[] copy = new byte[contents.remaining()];
      contents.duplicate().get(copy);
      return handle(blocks.computeIfAbsent(new Key(fileNumber, offset), k -> copy));
    }

    @Override
    public void evictFile(long fileNumber) {
      blocks.keySet().removeIf(k -> k.file() == fileNumber);
    }

    @Override
    public long cachedBlockCount(long fileNumber) {
      return blocks.keySet().stream().filter(k -> k.file() == fileNumber).count();
    }

    @Override
    public boolean isCached(long fileNumber, long offset) {
      return blocks.containsKey(new Key(fileNumber, offset));
    }

    @Override
    public CacheStats stats() {
      return new CacheStats(0, 0, 0, 0, 0, Long.MAX_VALUE, blocks.size(), 0, 0, 0);
    }

    @Override
    public long capacityBytes() {
      return Long.MAX_VALUE;
    }

    @Override
    public void close() {
      blocks.clear();
    }
  }
}
