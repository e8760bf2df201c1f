package dev.cairn.wal;

import static dev.cairn.wal.LogFormat.BLOCK_BYTES;
import static dev.cairn.wal.LogFormat.FIRST;
import static dev.cairn.wal.LogFormat.FULL;
import static dev.cairn.wal.LogFormat.HEADER_BYTES;
import static dev.cairn.wal.LogFormat.LAST;
import static dev.cairn.wal.LogFormat.MIDDLE;

import dev.cairn.fs.IoTag;
import dev.cairn.fs.ReadableFile;
import dev.cairn.util.ByteSink;
import dev.cairn.util.Checksums;
import dev.cairn.util.Coding;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * Reads the records of a log written by {@link LogWriter} (framing in docs/log_format.md),
 * sequentially, one 32 KiB block per positional read.
 *
 * <p>Damage is never returned as data and never thrown: it is reported to the {@link Reporter}
 * with the offset of the first dropped byte, the number of bytes dropped, and whether it is a
 * torn tail (the damaged bytes reach the end of the file, as a crash during a write leaves
 * them). A damaged fragment whose length cannot be trusted makes the reader drop the rest of
 * its block and resume at the next block boundary, where a fragment header always starts. The
 * recovery policy (fail, stop, skip) belongs to the caller; see {@link WalReplay}.
 *
 * <p>The file's size is taken when the first record is read; the log must not grow meanwhile.
 * Not thread-safe.
 */
public final class LogReader {
  /** Receives every piece of damage the reader finds and drops. */
  public interface Reporter {
    /**
     * @param offset file offset of the first dropped byte
     * @param bytes number of bytes dropped
     * @param reason what was wrong, naming the damaged fragment's offset where it differs
     * @param atTail whether the damage reaches the end of the file (a torn final write)
     */
    void corruption(long offset, long bytes, String reason, boolean atTail);
  }

  private static final int END_OF_FILE = -1;
  private static final int DAMAGED = -2;

  // Immutable after construction.
  private final ReadableFile file;
  private final String fileName;
  private final Reporter reporter;
  private final IoTag tag;
  private final byte[] block = new byte[BLOCK_BYTES];

  // Reading state.
  private long fileSize = -1;
  /** File offset of {@code block[0]}. */
  private long blockStart;
  /** Bytes of the file held in {@code block}. */
  private int blockLength;
  /** Next unread byte of {@code block}. */
  private int pos;
  /** Nothing more to read: end of file or a torn tail. */
  private boolean eof;
  private final ByteSink partial = new ByteSink(1024);
  private long lastRecordOffset = -1;
  private long lastRecordEnd;

  // The fragment readFragment() returned.
  private long fragmentOffset;
  private int fragmentPayload;
  private int fragmentLength;

  // The damage readFragment() found when it returned DAMAGED: [damageStart, damageEnd).
  private long damageStart;
  private long damageEnd;
  private String damageReason;
  private boolean damageAtTail;

  /** A reader of a write-ahead log (reads counted as {@link IoTag#WAL}). */
  public LogReader(ReadableFile file, String fileName, Reporter reporter) {
    this(file, fileName, reporter, IoTag.WAL);
  }

  /** A reader whose reads are counted under {@code tag} (e.g. {@link IoTag#MANIFEST}). */
  public LogReader(ReadableFile file, String fileName, Reporter reporter, IoTag tag) {
    this.file = file;
    this.fileName = fileName;
    this.reporter = reporter != null ? reporter : (offset, bytes, reason, atTail) -> { };
    this.tag = tag;
  }

  public String fileName() {
    return fileName;
  }

  /** File offset of the first fragment of the record last returned by {@link #readRecord()}. */
  public long lastRecordOffset() {
    return lastRecordOffset;
  }

  /**
   * File offset just past the last fragment of the record last returned (0 before any): the
   * length to keep when truncating a log to its last intact record.
   */
  public long lastRecordEnd() {
    return lastRecordEnd;
  }

  /** The next whole record, or null at the end of the log. Damage goes to the reporter. */
  public byte[] readRecord() throws IOException {
    if (fileSize < 0) {
      fileSize = file.size();
    }
    boolean inRecord = false;
    long recordStart = -1;
    partial.reset();
    while (true) {
      int type = readFragment();
      switch (type) {
        case FULL -> {
          if (inRecord) {
            report(recordStart, fragmentOffset, "partial record without end", false);
          }
          return finish(fragmentOffset,
              Arrays.copyOfRange(block, fragmentPayload, fragmentPayload + fragmentLength));
        }
        case FIRST -> {
          if (inRecord) {
            report(recordStart, fragmentOffset, "partial record without end", false);
          }
          inRecord = true;
          recordStart = fragmentOffset;
          partial.reset();
          partial.putBytes(block, fragmentPayload, fragmentLength);
        }
        case MIDDLE, LAST -> {
          if (!inRecord) {
            report(fragmentOffset, fragmentOffset + HEADER_BYTES + fragmentLength,
                "missing start of fragmented record (" + LogFormat.typeName(type) + " fragment)", false);
          } else {
            partial.putBytes(block, fragmentPayload, fragmentLength);
            if (type == LAST) {
              return finish(recordStart, partial.toByteArray());
            }
          }
        }
        case END_OF_FILE -> {
          if (inRecord) {
            report(recordStart, fileSize, "record truncated by end of file", true);
          }
          return null;
        }
        case DAMAGED -> {
          // An unfinished record dies with its damaged fragment: report from its start.
          long start = inRecord ? recordStart : damageStart;
          String where = inRecord && start != damageStart ? " at offset " + damageStart : "";
          report(start, damageEnd, damageReason + where, damageAtTail);
          inRecord = false;
          partial.reset();
        }
        default -> throw new AssertionError("readFragment returned " + type);
      }
    }
  }

  private byte[] finish(long recordOffset, byte[] record) {
    lastRecordOffset = recordOffset;
    lastRecordEnd = blockStart + pos;
    return record;
  }

  private void report(long start, long end, String reason, boolean atTail) {
    reporter.corruption(start, end - start, reason, atTail);
  }

  /**
   * Reads the next fragment: returns its type (with {@code fragment*} set), {@link
   * #END_OF_FILE}, or {@link #DAMAGED} (with {@code damage*} set).
   */
  private int readFragment() throws IOException {
    while (!eof) {
      int rest = blockLength - pos;
      if (rest < HEADER_BYTES) {
        if (!isLastBlock()) {
          // The trailer of a full block: zeros, or damage.
          if (rest > 0 && !allZero(block, pos, blockLength)) {
            return damage(blockStart + pos, blockStart + blockLength, "non-zero block trailer", false);
          }
          readNextBlock();
          continue;
        }
        eof = true;
        if (rest == 0 || allZero(block, pos, blockLength)) {
          return END_OF_FILE;
        }
        return damage(blockStart + pos, fileSize,
            "truncated fragment header (" + rest + " bytes before end of file)", true);
      }
      return parseFragment();
    }
    return END_OF_FILE;
  }

  private int parseFragment() throws IOException {
    long offset = blockStart + pos;
    int maskedCrc = Coding.getFixed32(block, pos);
    int length = (block[pos + 4] & 0xff) | (block[pos + 5] & 0xff) << 8;
    int type = block[pos + 6] & 0xff;
    if (maskedCrc == 0 && length == 0 && type == LogFormat.ZERO) {
      // Zeros to the end of the file are a preallocated or extended-but-unwritten tail: no
      // record was ever there. Zeros followed by data are a hole in the log.
      if (zerosUntilEndOfFile(offset)) {
        eof = true;
        return END_OF_FILE;
      }
      return damage(offset, blockStart + blockLength, "zero-filled region in the middle of the log", false);
    }
    int end = pos + HEADER_BYTES + length;
    if (end > blockLength) {
      if (end > BLOCK_BYTES || !isLastBlock()) {
        // A writer never lets a fragment cross its block: this length is bit rot, not a torn write.
        return damage(offset, blockStart + blockLength,
            "fragment length " + length + " overruns its block", false);
      }
      int intact = findIntactFragment(pos + HEADER_BYTES);
      if (intact >= 0) {
        // A torn write leaves nothing after it, yet a fragment with a good checksum follows:
        // this length is bit rot in the middle of the log, and the records from that
        // fragment on were acknowledged. Report it as such and resume there.
        int at = pos;
        pos = intact;
        return damage(offset, blockStart + intact, "fragment length " + length + " runs past the end of the file"
            + " but an intact fragment follows at offset " + (blockStart + intact) + " (at " + (blockStart + at) + ")",
            false);
      }
      eof = true;
      return damage(offset, fileSize, "fragment truncated by end of file (length " + length
          + ", " + (blockLength - pos - HEADER_BYTES) + " payload bytes present)", true);
    }
    int actual = Checksums.crc32c(block, pos + 6, 1 + length);
    if (Checksums.unmask(maskedCrc) != actual) {
      long fragmentEnd = blockStart + end;
      boolean atTail = zerosUntilEndOfFile(fragmentEnd);
      String reason = "checksum mismatch in " + LogFormat.typeName(type) + " fragment of " + length + " bytes";
      if (atTail) {
        eof = true;
        return damage(offset, fileSize, reason, true);
      }
      return damage(offset, blockStart + blockLength, reason, false);
    }
    pos = end;
    if (type < FULL || type > LAST) {
      // The checksum vouches for the length, so only this fragment is dropped.
      return damage(offset, blockStart + end, "unknown fragment type " + type, false);
    }
    fragmentOffset = offset;
    fragmentPayload = end - length;
    fragmentLength = length;
    return type;
  }

  /**
   * The position in the current block of the first fragment at or after {@code from} whose
   * header and checksum are intact, or -1. Only called on the damage path: it may compute a
   * checksum at many positions.
   */
  private int findIntactFragment(int from) {
    for (int p = from; p + HEADER_BYTES <= blockLength; p++) {
      int type = block[p + 6] & 0xff;
      int length = (block[p + 4] & 0xff) | (block[p + 5] & 0xff) << 8;
      if (type < FULL || type > LAST || p + HEADER_BYTES + length > blockLength) {
        continue;
      }
      if (Checksums.unmask(Coding.getFixed32(block, p)) == Checksums.crc32c(block, p + 6, 1 + length)) {
        return p;
      }
    }
    return -1;
  }

  /** Records damage over [start, end); drops the rest of the block unless end lies inside it. */
  private int damage(long start, long end, String reason, boolean atTail) {
    damageStart = start;
    damageEnd = end;
    damageReason = reason;
    damageAtTail = atTail;
    if (end >= blockStart + blockLength) {
      pos = blockLength;
    }
    return DAMAGED;
  }

  private boolean isLastBlock() {
    return blockStart + blockLength >= fileSize;
  }

  private void readNextBlock() throws IOException {
    blockStart += blockLength;
    pos = 0;
    blockLength = 0;
    int want = (int) Math.min(BLOCK_BYTES, fileSize - blockStart);
    if (want > 0) {
      blockLength = file.read(blockStart, ByteBuffer.wrap(block, 0, want), tag);
      if (blockLength < want) {
        fileSize = blockStart + blockLength; // the file shrank under us: its end is here
      }
    }
  }

  /** Whether every byte from {@code from} to the end of the file is zero. */
  private boolean zerosUntilEndOfFile(long from) throws IOException {
    long blockEnd = blockStart + blockLength;
    if (from < blockEnd && !allZero(block, (int) (from - blockStart), blockLength)) {
      return false;
    }
    long next = Math.max(from, blockEnd);
    if (next >= fileSize) {
      return true;
    }
    // Rare path (damage or zeros before the last block): scan ahead without moving the reader.
    byte[] scratch = new byte[BLOCK_BYTES];
    while (next < fileSize) {
      int want = (int) Math.min(BLOCK_BYTES, fileSize - next);
      int got = file.read(next, ByteBuffer.wrap(scratch, 0, want), tag);
      if (!allZero(scratch, 0, got)) {
        return false;
      }
      if (got < want) {
        return true;
      }
      next += got;
    }
    return true;
  }

  private static boolean allZero(byte[] b, int from, int to) {
    for (int i = from; i < to; i++) {
      if (b[i] != 0) {
        return false;
      }
    }
    return true;
  }
}
