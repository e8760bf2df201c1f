package dev.cairn.fuzz;

import dev.cairn.wal.WriteBatchRecords;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.cairn.CorruptionException;
import dev.cairn.WriteBatch;
import dev.cairn.memtable.MemTable;
import dev.cairn.version.NewerFormatVersionException;
import dev.cairn.version.VersionEdit;
import dev.cairn.version.VersionEditCodec;
import java.util.ArrayList;
import java.util.List;

/**
 * Fuzzes the decoders of the two record formats that travel inside log records: write batches
 * (the WAL) and version edits (the manifest). Only a {@link CorruptionException} (or, for an
 * edit, {@link NewerFormatVersionException}) may come out; what decodes must re-encode to the
 * same operations. Seeds: {@code RecordFuzzTestInputs/<method>/}, written by {@link SeedCorpus}.
 */
class RecordFuzzTest {
  @FuzzTest
  void writeBatch(byte[] data) {
    List<String> ops = new ArrayList<>();
    MemTable mem = new MemTable();
    WriteBatchRecords.Handler intoMemtable = mem.inserter();
    int count;
    try {
      count = WriteBatchRecords.decode(data, "fuzz.log", 0, new WriteBatchRecords.Handler() {
        @Override
        public void put(long sequence, byte[] key, byte[] value) {
          ops.add("put " + sequence + " " + java.util.HexFormat.of().formatHex(key) + " " + value.length);
          intoMemtable.put(sequence, key, value); // what recovery does with it
        }

        @Override
        public void delete(long sequence, byte[] key) {
          ops.add("del " + sequence + " " + java.util.HexFormat.of().formatHex(key));
          intoMemtable.delete(sequence, key);
        }

        @Override
        public void deleteRange(long sequence, byte[] from, byte[] to) {
          ops.add("range " + sequence + " " + java.util.HexFormat.of().formatHex(from) + " "
              + java.util.HexFormat.of().formatHex(to));
          intoMemtable.deleteRange(sequence, from, to);
        }

        @Override
        public void merge(long sequence, byte[] key, byte[] operand) {
          ops.add("merge " + sequence + " " + java.util.HexFormat.of().formatHex(key) + " " + operand.length);
          intoMemtable.merge(sequence, key, operand);
        }
      });
    } catch (CorruptionException expected) {
      return;
    }
    assertEquals(count, ops.size());
    assertEquals(count, mem.entries());
  }

  @FuzzTest
  void versionEdit(byte[] data) {
    VersionEdit edit;
    try {
      edit = VersionEditCodec.decode(data, "MANIFEST-000001", 0);
    } catch (CorruptionException | NewerFormatVersionException expected) {
      return;
    }
    VersionEdit again = VersionEditCodec.decode(VersionEditCodec.encode(edit), "reencoded", 0);
    assertEquals(edit.toString(), again.toString(), "an edit must survive re-encoding");
  }
}
