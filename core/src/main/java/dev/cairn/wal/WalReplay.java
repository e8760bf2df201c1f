package dev.cairn.wal;

import dev.cairn.CorruptionException;
import dev.cairn.Options.WalRecoveryMode;
import dev.cairn.fs.IoTag;
import dev.cairn.fs.ReadableFile;
import java.io.IOException;

/**
 * Replays a log under a {@link WalRecoveryMode}: the {@link LogReader} finds and drops damage,
 * the mode decides whether that fails the replay, stops it, or is tolerated (the table in
 * docs/log_format.md, "Recovery modes").
 */
public final class WalReplay {
  private WalReplay() {}

  /** Receives each intact record in order, with the file offset of its first fragment. */
  @FunctionalInterface
  public interface RecordConsumer {
    void accept(byte[] record, long offset) throws IOException;
  }

  /**
   * What a replay did.
   *
   * @param records records handed to the consumer
   * @param bytesDropped bytes of the file not handed over because they were damaged (under
   *     {@code POINT_IN_TIME}: everything from the first damage to the end of the file)
   * @param firstCorruptionOffset offset of the first damage, or -1 if there was none
   * @param tornTail whether a torn tail was dropped (a crash during the last write)
   */
  public record ReplayResult(long records, long bytesDropped, long firstCorruptionOffset, boolean tornTail) {
    /** Whether the replay stopped early or skipped anything. */
    public boolean droppedAnything() {
      return firstCorruptionOffset >= 0;
    }
  }

  /** Replays a write-ahead log (reads counted as {@link IoTag#WAL}). */
  public static ReplayResult replay(ReadableFile file, String fileName, WalRecoveryMode mode,
      RecordConsumer consumer) throws IOException {
    return replay(file, fileName, mode, consumer, IoTag.WAL);
  }

  /**
   * Replays the log in {@code file}, handing each intact record to {@code consumer}.
   *
   * @throws CorruptionException naming {@code fileName} and the damage's offset when the mode
   *     says the damage must fail the recovery
   */
  public static ReplayResult replay(ReadableFile file, String fileName, WalRecoveryMode mode,
      RecordConsumer consumer, IoTag tag) throws IOException {
    ModePolicy policy = new ModePolicy(fileName, mode, file.size());
    LogReader reader = new LogReader(file, fileName, policy, tag);
    long records = 0;
    byte[] record;
    while (!policy.stopped && (record = reader.readRecord()) != null) {
      if (policy.stopped) {
        break; // damage came before this record: a point in time excludes it
      }
      consumer.accept(record, reader.lastRecordOffset());
      records++;
    }
    return new ReplayResult(records, policy.bytesDropped, policy.firstCorruptionOffset, policy.tornTail);
  }

  /** Applies the mode to each damage report. */
  private static final class ModePolicy implements LogReader.Reporter {
    private final String fileName;
    private final WalRecoveryMode mode;
    private final long fileSize;
    boolean stopped;
    long bytesDropped;
    long firstCorruptionOffset = -1;
    boolean tornTail;

    ModePolicy(String fileName, WalRecoveryMode mode, long fileSize) {
      this.fileName = fileName;
      this.mode = mode;
      this.fileSize = fileSize;
    }

    @Override
    public void corruption(long offset, long bytes, String reason, boolean atTail) {
      if (stopped) {
        return;
      }
      boolean fail = switch (mode) {
        case ABSOLUTE_CONSISTENCY -> true;
        case TOLERATE_CORRUPTED_TAIL -> !atTail;
        case POINT_IN_TIME, SKIP_ANY_CORRUPTED -> false;
      };
      if (fail) {
        throw new CorruptionException(fileName, offset,
            reason + (atTail ? " (torn tail)" : "") + "; " + bytes + " bytes damaged");
      }
      if (firstCorruptionOffset < 0) {
        firstCorruptionOffset = offset;
      }
      tornTail |= atTail;
      if (mode == WalRecoveryMode.POINT_IN_TIME) {
        stopped = true;
        bytesDropped += Math.max(bytes, fileSize - offset);
      } else {
        bytesDropped += bytes;
      }
    }
  }
}
