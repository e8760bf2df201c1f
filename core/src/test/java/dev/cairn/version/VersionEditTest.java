package dev.cairn.version;

import static dev.cairn.version.Files.key;
import static dev.cairn.version.Files.table;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cairn.CorruptionException;
import dev.cairn.util.ByteSink;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

class VersionEditTest {
  private static VersionEdit roundTrip(VersionEdit edit) {
    return VersionEdit.decode(edit.encode(), "MANIFEST-000001", 0);
  }

  @Test
  void everyFieldRoundTrips() {
    FileMetaData f = new FileMetaData(12, 4000, 3500, 5000, key("apple", 9), key("pear", 3), 77, 3, 9);
    VersionEdit edit = new VersionEdit()
        .setFormatVersion(1)
        .setLogNumber(5)
        .setNextFileNumber(13)
        .setLastSequence(1234567890123L)
        .setCompactPointer(2, key("m", 4))
        .deleteFile(1, 7)
        .deleteFile(3, 8)
        .addFile(2, f)
        .addFile(0, table(11, "a", "z", 1, 2));
    VersionEdit back = roundTrip(edit);
    assertEquals(1, back.formatVersion());
    assertEquals(5, back.logNumber());
    assertEquals(13, back.nextFileNumber());
    assertEquals(1234567890123L, back.lastSequence());
    assertArrayEquals(key("m", 4), back.compactPointers().get(2));
    assertEquals(Set.of(new VersionEdit.DeletedFile(1, 7), new VersionEdit.DeletedFile(3, 8)), back.deletedFiles());
    assertEquals(List.of(new VersionEdit.NewFile(2, f), new VersionEdit.NewFile(0, table(11, "a", "z", 1, 2))),
        back.newFiles());
    assertEquals(edit.toString(), back.toString());
    assertArrayEquals(edit.encode(), back.encode());
  }

  @Test
  void footerUpdatesRoundTripAfterTheOtherFileTags() {
    FileMetaData moved = new FileMetaData(12, 9000, 5200, 9072, key("apple", 9), key("plum", 30), 80, 3, 30);
    VersionEdit edit = new VersionEdit().deleteFile(1, 7).updateFooter(2, moved).addFile(2, table(13, "q", "r", 31, 32));
    VersionEdit back = roundTrip(edit);
    assertEquals(List.of(new VersionEdit.FooterUpdate(2, moved)), back.footerUpdates());
    assertArrayEquals(edit.encode(), back.encode());
    assertTrue(back.toString().contains("footer L2 #12"), back.toString());
    // Tag 18, then a level and a truncated file: corruption, not a half-applied edit.
    byte[] truncated = new ByteSink().putVarint32(18).putVarint32(2).putVarint64(12).toByteArray();
    assertThrows(CorruptionException.class, () -> VersionEdit.decode(truncated, "m", 0));
  }

  @Test
  void absentFieldsStayAbsent() {
    VersionEdit back = roundTrip(new VersionEdit());
    assertFalse(back.hasFormatVersion());
    assertFalse(back.hasLogNumber());
    assertFalse(back.hasNextFileNumber());
    assertFalse(back.hasLastSequence());
    assertEquals(0, new VersionEdit().encode().length);
    assertEquals("VersionEdit{}", back.toString());
  }

  /** The tag ids are on disk: pin the bytes of a small edit. */
  @Test
  void encodingIsPinned() {
    byte[] bytes = new VersionEdit().setFormatVersion(1).setLogNumber(3).setNextFileNumber(300)
        .setLastSequence(0).deleteFile(4, 9).encode();
    assertArrayEquals(new byte[] {1, 1, 2, 3, 3, (byte) 0xac, 0x02, 4, 0, 6, 4, 9}, bytes);
  }

  @Test
  void newerFormatVersionIsRejectedWithAClearMessage() {
    // The newer format's unknown tag 99 follows: the version must be rejected first.
    byte[] record = new ByteSink().putVarint32(1).putVarint32(4).putVarint32(99).putVarint32(0).toByteArray();
    NewerFormatVersionException e = assertThrows(NewerFormatVersionException.class,
        () -> VersionEdit.decode(record, "MANIFEST-000004", 0));
    assertEquals("database format version 4 is newer than this Cairn supports (max 3)", e.getMessage());
    assertEquals(4, e.version());
    assertEquals("MANIFEST-000004", e.file());
  }

  @Test
  void unknownTagsAreCorruption() {
    for (int tag : new int[] {0, 8, 9, 15, 19, 1000}) {
      byte[] record = new ByteSink().putVarint32(2).putVarint64(1).putVarint32(tag).putVarint64(1).toByteArray();
      CorruptionException e = assertThrows(CorruptionException.class,
          () -> VersionEdit.decode(record, "MANIFEST-000002", 100), "tag " + tag);
      assertEquals("MANIFEST-000002", e.file());
      assertEquals(102, e.offset(), "offset of the bad tag, tag " + tag);
    }
  }

  @Test
  void invalidValuesAreCorruption() {
    byte[] badLevel = new ByteSink().putVarint32(6).putVarint32(7).putVarint64(1).toByteArray();
    assertThrows(CorruptionException.class, () -> VersionEdit.decode(badLevel, "m", 0));
    byte[] version0 = new ByteSink().putVarint32(1).putVarint32(0).toByteArray();
    assertThrows(CorruptionException.class, () -> VersionEdit.decode(version0, "m", 0));
    // validBytes > totalBytes
    byte[] badFile = new ByteSink().putVarint32(7).putVarint32(1)
        .putVarint64(5).putVarint64(0).putVarint64(10).putVarint64(9)
        .putLengthPrefixed(key("a", 1)).putLengthPrefixed(key("b", 1))
        .putVarint64(1).putVarint64(1).putVarint64(1).toByteArray();
    CorruptionException e = assertThrows(CorruptionException.class, () -> VersionEdit.decode(badFile, "m", 0));
    assertTrue(e.reason().contains("validBytes"), e.reason());
    // a key too short to be an internal key
    byte[] shortKey = new ByteSink().putVarint32(7).putVarint32(1)
        .putVarint64(5).putVarint64(0).putVarint64(10).putVarint64(10)
        .putLengthPrefixed(new byte[3]).putLengthPrefixed(key("b", 1))
        .putVarint64(1).putVarint64(1).putVarint64(1).toByteArray();
    assertThrows(CorruptionException.class, () -> VersionEdit.decode(shortKey, "m", 0));
  }

  @Test
  void garbageAndTruncationNeverThrowAnythingElse() {
    long seed = Long.getLong("cairn.seed", System.nanoTime());
    Random random = new Random(seed);
    byte[] valid = new VersionEdit().setLogNumber(5).setNextFileNumber(13).setLastSequence(99)
        .setCompactPointer(1, key("k", 1)).deleteFile(1, 7).addFile(2, table(11, "a", "z", 1, 2)).encode();
    try {
      for (int i = 0; i < 20_000; i++) {
        byte[] input;
        if (i % 3 == 0) {
          input = new byte[random.nextInt(64)];
          random.nextBytes(input);
        } else if (i % 3 == 1) {
          input = Arrays.copyOf(valid, random.nextInt(valid.length));
        } else {
          input = valid.clone();
          input[random.nextInt(input.length)] ^= (byte) (1 << random.nextInt(8));
        }
        try {
          VersionEdit.decode(input, "m", 0);
        } catch (CorruptionException | NewerFormatVersionException expected) {
          // the only two outcomes besides success
        }
      }
    } catch (RuntimeException e) {
      throw new AssertionError("failed with -Dcairn.seed=" + seed, e);
    }
  }

  @Test
  void bufferEntriesRoundTripAndPinTheirLayout() {
    VersionEdit edit = new VersionEdit()
        .removeFromBuffer(2, 40, new BufferEntry.Removed(Files.user("a"), Files.user("b")))
        .addToBuffer(2, 41, new BufferEntry.File(table(9, "c", "d", 1, 2)))
        .addToBuffer(2, 41, new BufferEntry.File(table(10, "f", "p", 1, 2), Files.user("g"), Files.user("h")))
        .addToBuffer(3, 42, new BufferEntry.Removed(Files.user("x"), Files.user("y")));
    VersionEdit back = VersionEdit.decode(edit.encode(), "m", 0);
    assertEquals(edit.toString(), back.toString());
    assertEquals(edit.bufferAdds(), back.bufferAdds());
    byte[] remove = new VersionEdit()
        .removeFromBuffer(1, 5, new BufferEntry.Removed(Files.user("k"), Files.user("k"))).encode();
    assertArrayEquals(new byte[] {17, 1, 5, 1, 'k'}, remove);
    byte[] marker = new VersionEdit()
        .addToBuffer(1, 5, new BufferEntry.Removed(Files.user("k"), Files.user("m"))).encode();
    assertArrayEquals(new byte[] {16, 1, 5, 2, 1, 'k', 1, 'm'}, marker);
  }

  @Test
  void badBufferEntriesAreCorruption() {
    byte[] unknownKind = new ByteSink().putVarint32(16).putVarint32(1).putVarint64(5).putVarint32(9).toByteArray();
    CorruptionException e = assertThrows(CorruptionException.class, () -> VersionEdit.decode(unknownKind, "m", 10));
    assertEquals(13, e.offset());
    byte[] inverted = new ByteSink().putVarint32(16).putVarint32(1).putVarint64(5).putVarint32(2)
        .putLengthPrefixed(Files.user("z")).putLengthPrefixed(Files.user("a")).toByteArray();
    assertThrows(CorruptionException.class, () -> VersionEdit.decode(inverted, "m", 0));
    byte[] truncated = new ByteSink().putVarint32(17).putVarint32(1).putVarint64(5).toByteArray();
    assertThrows(CorruptionException.class, () -> VersionEdit.decode(truncated, "m", 0));
    // A part whose range reaches outside its file's keys (the file holds f..p).
    byte[] part = new VersionEdit()
        .addToBuffer(1, 5, new BufferEntry.File(table(10, "f", "p", 1, 2), Files.user("g"), Files.user("h"))).encode();
    byte[] outside = new String(part, java.nio.charset.StandardCharsets.ISO_8859_1).replace("\u0001g\u0001h", "\u0001a\u0001h")
        .getBytes(java.nio.charset.StandardCharsets.ISO_8859_1);
    assertEquals(part.length, outside.length);
    CorruptionException c = assertThrows(CorruptionException.class, () -> VersionEdit.decode(outside, "m", 0));
    assertTrue(c.getMessage().contains("reaches outside its file"), c.getMessage());
  }
}
