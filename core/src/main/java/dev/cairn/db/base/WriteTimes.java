package dev.cairn.db.base;

import dev.cairn.CairnException;
import dev.cairn.CompactionFilter;
import dev.cairn.Options;
import dev.cairn.WriteBatch;
import dev.cairn.wal.WriteBatchRecords;
import java.time.Clock;
import java.util.Arrays;

/**
 * A TTL database's values ({@link Options#ttl()}, RocksDB's {@code TtlDB}): each value is stored
 * with its write time appended, 4 bytes little-endian, unsigned seconds since the epoch
 * (docs/format.md, "Values with a write time"). A value whose age is more than the TTL is
 * expired: reads treat it as a tombstone (it hides the key's older values, which are older
 * still), and compactions remove it through the compaction filter this class puts in front of
 * the user's. Thread-safe (immutable).
 */
public final class WriteTimes {
  private static final System.Logger LOG = System.getLogger(WriteTimes.class.getName());

  /** Bytes of the write time at the end of every stored value. */
  public static final int BYTES = 4;

  private final long ttlSeconds;
  private final Clock clock;

  private WriteTimes(long ttlSeconds, Clock clock) {
    this.ttlSeconds = ttlSeconds;
    this.clock = clock;
  }

  /** The write times of a database opened with {@code options}, or null without a TTL. */
  public static WriteTimes of(Options options) {
    return options.ttl() == null ? null : new WriteTimes(options.ttl().getSeconds(), options.clock());
  }

  /** Seconds since the epoch, now. */
  public long now() {
    return Math.floorDiv(clock.millis(), 1000);
  }

  /**
   * {@code batch} with the current time appended to each value.
   *
   * @throws IllegalArgumentException naming the key whose value leaves no room for the write time
   */
  public WriteBatch stamp(WriteBatch batch) {
    long now = now();
    WriteBatch stamped = new WriteBatch();
    WriteBatchRecords.decode(WriteBatchRecords.encode(batch, 0), "write batch", 0, new WriteBatchRecords.Handler() {
      @Override
      public void put(long sequence, byte[] key, byte[] value) {
        if (value.length > Options.MAX_VALUE_BYTES - BYTES) {
          throw new IllegalArgumentException("with a TTL a value holds at most " + (Options.MAX_VALUE_BYTES - BYTES)
              + " bytes (4 carry its write time): " + value.length + " bytes");
        }
        stamped.put(key, withTime(value, now));
      }

      @Override
      public void delete(long sequence, byte[] key) {
        stamped.delete(key);
      }

      @Override
      public void deleteRange(long sequence, byte[] from, byte[] to) {
        stamped.deleteRange(from, to);
      }

      @Override
      public void merge(long sequence, byte[] key, byte[] operand) {
        throw new IllegalArgumentException("a database with a TTL takes no merges");
      }
    });
    return stamped;
  }

  static byte[] withTime(byte[] value, long seconds) {
    byte[] out = Arrays.copyOf(value, value.length + BYTES);
    for (int i = 0; i < BYTES; i++) {
      out[value.length + i] = (byte) (seconds >>> (8 * i));
    }
    return out;
  }

  /** The write time of a stored value, in seconds since the epoch. */
  static long writeTime(byte[] stored) {
    if (stored.length < BYTES) {
      throw new CairnException("a value of " + stored.length + " bytes has no room for its write time: the"
          + " database stores one with every value (it was created with a TTL), this value was written without");
    }
    long t = 0;
    for (int i = 0; i < BYTES; i++) {
      t |= (stored[stored.length - BYTES + i] & 0xffL) << (8 * i);
    }
    return t;
  }

  /** Whether {@code stored} is older than the TTL at {@code now}. */
  public boolean expired(byte[] stored, long now) {
    return now - writeTime(stored) > ttlSeconds;
  }

  /** The user's value of {@code stored} (a new array), or null when it has expired at {@code now}. */
  public byte[] userValue(byte[] stored, long now) {
    return expired(stored, now) ? null : Arrays.copyOf(stored, stored.length - BYTES);
  }

  /**
   * The user's filter as a TTL database runs it (compactions remove expired values before asking
   * it): it sees values without their write time, and a value it changes keeps its write time. A
   * changed value with no room left for the time is not applied (the value stays, a warning says
   * why): failing the compaction would stop the database's writes.
   */
  public CompactionFilter userFilter(CompactionFilter user) {
    return (context, key, value) -> {
      CompactionFilter.Decision d = user.filter(context, key, Arrays.copyOf(value, value.length - BYTES));
      if (d == null || d == CompactionFilter.Decision.KEEP || d == CompactionFilter.Decision.REMOVE) {
        return d;
      }
      byte[] changed = d.newValue();
      if (changed.length > Options.MAX_VALUE_BYTES - BYTES) {
        LOG.log(System.Logger.Level.WARNING, "compaction filter changed a value to " + changed.length
            + " bytes, more than a TTL database's " + (Options.MAX_VALUE_BYTES - BYTES) + ": the value is kept");
        return CompactionFilter.Decision.KEEP;
      }
      return CompactionFilter.Decision.change(withTime(changed, writeTime(value)));
    };
  }
}
