package dev.cairn.fuzz;

import dev.cairn.wal.WriteBatchRecords;
import dev.cairn.fs.fake.InMemoryFile;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.cairn.CorruptionException;
import dev.cairn.Options.WalRecoveryMode;
import dev.cairn.WriteBatch;
import dev.cairn.memtable.MemTable;
import dev.cairn.wal.LogReader;
import dev.cairn.wal.WalReplay;
import java.io.IOException;

/**
 * Fuzzes log reading as recovery does it: {@link LogReader} framing, {@link WalReplay} under every
 * recovery mode, and each record decoded as a write batch into one memtable. Only {@link
 * CorruptionException} may come out; the reader itself must never throw for damage (it reports
 * it), and must never report more bytes dropped than the file holds.
 *
 * <p>{@link #walChecksumsRepaired} first makes every fragment CRC verify ({@link ChecksumRepair}),
 * so that mutations reach fragment reassembly and the batch decoder.
 */
class LogFuzzTest {
  private static final int MAX_RECORDS = 100_000;

  @FuzzTest
  void wal(byte[] data) throws IOException {
    exercise(data);
  }

  @FuzzTest
  void walChecksumsRepaired(byte[] data) throws IOException {
    byte[] repaired = data.clone();
    ChecksumRepair.log(repaired);
    exercise(repaired);
  }

  private static void exercise(byte[] bytes) throws IOException {
    long[] dropped = {0};
    LogReader reader = new LogReader(new InMemoryFile(bytes), "000001.log", (offset, n, reason, atTail) -> {
      assertTrue(offset >= 0 && n >= 0 && offset + n <= bytes.length,
          "damage report " + offset + "+" + n + " outside a file of " + bytes.length + " bytes: " + reason);
      dropped[0] += n;
    });
    int records = 0;
    long recordBytes = 0;
    byte[] record;
    while ((record = reader.readRecord()) != null && records < MAX_RECORDS) {
      records++;
      recordBytes += record.length;
    }
    assertTrue(recordBytes <= bytes.length, "records hold more bytes than the log");

    for (WalRecoveryMode mode : WalRecoveryMode.values()) {
      MemTable mem = new MemTable();
      long[] lastReplayed = {-1};
      try {
        WalReplay.replay(new InMemoryFile(bytes), "000001.log", mode, (r, offset) -> {
          // Recovery's rule (Recovery#follows, ReplayedSequenceTest): a record must
          // follow the previous one's sequences, or it would overwrite memtable entries.
          if (r.length >= 8 && WriteBatchRecords.sequenceOf(r) <= lastReplayed[0]) {
            throw new CorruptionException("000001.log", offset, "record does not follow the previous one");
          }
          int n = WriteBatchRecords.decode(r, "000001.log", offset, mem.inserter());
          lastReplayed[0] = WriteBatchRecords.sequenceOf(r) + n - 1;
        });
      } catch (CorruptionException expected) {
        // The mode refused the damage, or a record is not a valid batch.
      }
    }
  }
}
