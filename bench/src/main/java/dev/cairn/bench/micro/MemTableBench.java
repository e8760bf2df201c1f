package dev.cairn.bench.micro;

import dev.cairn.iter.InternalIterator;
import dev.cairn.key.InternalKey;
import dev.cairn.key.LookupResult;
import dev.cairn.key.ValueType;
import dev.cairn.memtable.MemTable;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Blackhole;

/**
 * The memtable's cost per operation: insert of random 16-byte keys with 100-byte values
 * (db_bench's fillrandom shape), insert in the runner's load shape (16 ASCII digits, a fresh 1 KiB
 * value per entry as a decoded write batch gives, 32 MiB memtables of about 31,000 entries), a
 * point lookup that hits, and a short scan after a seek. Figures before and after the arena
 * skiplist: docs/results/issue20 {@code memtable-jmh/}.
 *
 * <p>Run: {@code java -jar bench/target/cairn-bench.jar MemTableBench} (or through the JMH main).
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsAppend = {"-Xms2g", "-Xmx2g"})
public class MemTableBench {
  private static final int KEY_BYTES = 16;
  private static final int VALUE_BYTES = 100;

  /**
   * Inserts into a memtable that is replaced once it holds {@link #entriesPerMemTable()} entries
   * (a memtable switch, amortized over the entries it held). Subclasses give the key shape, the
   * value size and the memtable's size as a JMH parameter.
   */
  abstract static class InsertingState {
    MemTable memTable;
    SplittableRandom random;
    long sequence;
    final byte[] value;

    InsertingState(int valueBytes) {
      value = new byte[valueBytes];
    }

    @Setup(Level.Iteration)
    public void setUp() {
      memTable = new MemTable();
      random = new SplittableRandom(42);
      random.nextBytes(value);
    }

    abstract int entriesPerMemTable();

    abstract byte[] nextKey();

    /** The memtable to insert into next: a fresh one once the current one is full. */
    MemTable withRoom() {
      if (memTable.entries() >= entriesPerMemTable()) {
        memTable = new MemTable();
      }
      return memTable;
    }
  }

  /** db_bench's fillrandom: random 16-byte keys, 100-byte values, 64 MiB memtables. */
  @State(Scope.Thread)
  public static class InsertState extends InsertingState {
    /** Roughly a 64 MiB memtable at ~190 bytes per entry. */
    @Param({"350000"})
    int entriesPerMemTable;

    public InsertState() {
      super(VALUE_BYTES);
    }

    @Override
    int entriesPerMemTable() {
      return entriesPerMemTable;
    }

    @Override
    byte[] nextKey() {
      byte[] key = new byte[KEY_BYTES];
      random.nextBytes(key);
      return key;
    }
  }

  /** The runner's load: 16-digit keys, a fresh 1 KiB value each, 32 MiB memtables. */
  @State(Scope.Thread)
  public static class LoadShapeState extends InsertingState {
    @Param({"31000"})
    int entriesPerMemTable;

    public LoadShapeState() {
      super(1024);
    }

    @Override
    int entriesPerMemTable() {
      return entriesPerMemTable;
    }

    @Override
    byte[] nextKey() {
      long id = random.nextLong(10_000_000_000_000_000L);
      byte[] key = new byte[KEY_BYTES];
      for (int i = KEY_BYTES - 1; i >= 0; i--) {
        key[i] = (byte) ('0' + id % 10);
        id /= 10;
      }
      return key;
    }
  }

  /** A full memtable and the keys in it, for lookups and scans. */
  @State(Scope.Benchmark)
  public static class FilledState {
    @Param({"350000"})
    int entries;

    MemTable memTable;
    byte[][] keys;

    @Setup(Level.Trial)
    public void fill() {
      memTable = new MemTable();
      keys = new byte[entries][];
      SplittableRandom random = new SplittableRandom(7);
      byte[] value = new byte[VALUE_BYTES];
      for (int i = 0; i < entries; i++) {
        keys[i] = new byte[KEY_BYTES];
        random.nextBytes(keys[i]);
        memTable.add(i + 1, ValueType.VALUE, keys[i], value);
      }
    }
  }

  @State(Scope.Thread)
  public static class Cursor {
    final SplittableRandom random = new SplittableRandom(11);
  }

  @Benchmark
  public void insertRandom(InsertState s) {
    // The value array is shared: the memtable keeps a reference and never modifies it.
    s.withRoom().add(++s.sequence, ValueType.VALUE, s.nextKey(), s.value);
  }

  @Benchmark
  public void insertLoadShape(LoadShapeState s) {
    // A fresh value per entry, as a decoded write batch gives.
    s.withRoom().add(++s.sequence, ValueType.VALUE, s.nextKey(), s.value.clone());
  }

  @Benchmark
  public LookupResult getHit(FilledState s, Cursor c) {
    byte[] key = s.keys[c.random.nextInt(s.keys.length)];
    return s.memTable.get(key, InternalKey.MAX_SEQUENCE);
  }

  @Benchmark
  public void seekAndScan10(FilledState s, Cursor c, Blackhole bh) {
    byte[] key = s.keys[c.random.nextInt(s.keys.length)];
    try (InternalIterator it = s.memTable.iterator()) {
      it.seek(InternalKey.seekKey(key, InternalKey.MAX_SEQUENCE));
      for (int i = 0; i < 10 && it.isValid(); i++, it.next()) {
        bh.consume(it.value());
      }
    }
  }
}
