package dev.cairn.version;

import dev.cairn.testkit.Seeds;
import dev.cairn.model.BufferRun;
import dev.cairn.model.BufferEntry;
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
    return VersionEditCodec.decode(VersionEditCodec.encode(edit), "MANIFEST-000001", 0);
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
    assertArrayEquals(VersionEditCodec.encode(edit), VersionEditCodec.encode(back));
  }

  @Test
  void footerUpdatesRoundTripAfterTheOtherFileTags() {
    FileMetaData moved = new FileMetaData(12, 9000, 5200, 9072, key("apple", 9), key("plum", 30), 80, 3, 30);
    VersionEdit edit = new VersionEdit().deleteFile(1, 7).updateFooter(2, moved).addFile(2, table(13, "q", "r", 31, 32));
    VersionEdit back = roundTrip(edit);
    assertEquals(List.of(new VersionEdit.FooterUpdate(2, moved)), back.footerUpdates());
    assertArrayEquals(VersionEditCodec.encode(edit), VersionEditCodec.encode(back));
    assertTrue(back.toString().contains("footer L2 #12"), back.toString());
    // Tag 18, then a level and a truncated file: corruption, not a half-applied edit.
    byte[] truncated = new ByteSink().putVarint32(18).putVarint32(2).putVarint64(12).toByteArray();
    assertThrows(CorruptionException.class, () -> VersionEditCodec.decode(truncated, "m", 0));
  }

  @Test
  void absentFieldsStayAbsent() {
    VersionEdit back = roundTrip(new VersionEdit());
    assertFalse(back.hasFormatVersion());
    assertFalse(back.hasLogNumber());
    assertFalse(back.hasNextFileNumber());
    assertFalse(back.hasLastSequence());
    assertEquals(0, VersionEditCodec.encode(new VersionEdit()).length);
    assertEquals("VersionEdit{}", back.toString());
  }

  /** The tag ids are on disk: pin the bytes of a small edit. */
  @Test
  void encodingIsPinned() {
    byte[] bytes = VersionEditCodec.encode(new VersionEdit().setFormatVersion(1).setLogNumber(3).setNextFileNumber(300)
        .setLastSequence(0).deleteFile(4, 9));
    assertArrayEquals(new byte[] {1, 1, 2, 3, 3, (byte) 0xac, 0x02, 4, 0, 6, 4, 9}, bytes);
  }

  @Test
  void newerFormatVersionIsRejectedWithAClearMessage() {
    // The newer format's unknown tag 99 follows: the version must be rejected first.
    byte[] record = new ByteSink().putVarint32(1).putVarint32(6).putVarint32(99).putVarint32(0).toByteArray();
    NewerFormatVersionException e = assertThrows(NewerFormatVersionException.class,
        () -> VersionEditCodec.decode(record, "MANIFEST-000004", 0));
    assertEquals("database format version 6 is newer than this Cairn supports (max 5)", e.getMessage());
    assertEquals(6, e.version());
    assertEquals("MANIFEST-000004", e.file());
  }

  /** Format 5's one tag: a TTL database's value format, pinned; an unknown format is corruption. */
  @Test
  void theValueFormatRoundTripsAndPinsItsTag() {
    VersionEdit edit = new VersionEdit().setFormatVersion(5).setValueFormat(VersionEdit.VALUES_WITH_WRITE_TIME);
    assertArrayEquals(new byte[] {1, 5, 19, 1}, VersionEditCodec.encode(edit));
    assertEquals(VersionEdit.VALUES_WITH_WRITE_TIME, roundTrip(edit).valueFormat());
    assertEquals(0, roundTrip(new VersionEdit().setLogNumber(1)).valueFormat());
    byte[] unknown = new ByteSink().putVarint32(19).putVarint32(2).toByteArray();
    assertThrows(CorruptionException.class, () -> VersionEditCodec.decode(unknown, "m", 0));
  }

  /** The range deletions mark: tag 20 with a 1, pinned; any other value is corruption. */
  @Test
  void theRangeDeletionsMarkRoundTripsAndPinsItsTag() {
    VersionEdit edit = new VersionEdit().markRangeDeletions();
    assertArrayEquals(new byte[] {20, 1}, VersionEditCodec.encode(edit));
    assertTrue(roundTrip(edit).marksRangeDeletions());
    assertFalse(roundTrip(new VersionEdit().setLogNumber(1)).marksRangeDeletions());
    byte[] bad = new ByteSink().putVarint32(20).putVarint32(2).toByteArray();
    assertThrows(CorruptionException.class, () -> VersionEditCodec.decode(bad, "m", 0));
  }

  @Test
  void unknownTagsAreCorruption() {
    for (int tag : new int[] {0, 8, 9, 15, 21, 1000}) {
      byte[] record = new ByteSink().putVarint32(2).putVarint64(1).putVarint32(tag).putVarint64(1).toByteArray();
      CorruptionException e = assertThrows(CorruptionException.class,
          () -> VersionEditCodec.decode(record, "MANIFEST-000002", 100), "tag " + tag);
      assertEquals("MANIFEST-000002", e.file());
      assertEquals(102, e.offset(), "offset of the bad tag, tag " + tag);
    }
  }

  @Test
  void invalidValuesAreCorruption() {
    byte[] badLevel = new ByteSink().putVarint32(6).putVarint32(7).putVarint64(1).toByteArray();
    assertThrows(CorruptionException.class, () -> VersionEditCodec.decode(badLevel, "m", 0));
    byte[] version0 = new ByteSink().putVarint32(1).putVarint32(0).toByteArray();
    assertThrows(CorruptionException.class, () -> VersionEditCodec.decode(version0, "m", 0));
    // validBytes > totalBytes
    byte[] badFile = new ByteSink().putVarint32(7).putVarint32(1)
        .putVarint64(5).putVarint64(0).putVarint64(10).putVarint64(9)
        .putLengthPrefixed(key("a", 1)).putLengthPrefixed(key("b", 1))
        .putVarint64(1).putVarint64(1).putVarint64(1).toByteArray();
    CorruptionException e = assertThrows(CorruptionException.class, () -> VersionEditCodec.decode(badFile, "m", 0));
    assertTrue(e.reason().contains("validBytes"), e.reason());
    // a key too short to be an internal key
    byte[] shortKey = new ByteSink().putVarint32(7).putVarint32(1)
        .putVarint64(5).putVarint64(0).putVarint64(10).putVarint64(10)
        .putLengthPrefixed(new byte[3]).putLengthPrefixed(key("b", 1))
        .putVarint64(1).putVarint64(1).putVarint64(1).toByteArray();
    assertThrows(CorruptionException.class, () -> VersionEditCodec.decode(shortKey, "m", 0));
  }

  @Test
  void garbageAndTruncationNeverThrowAnythingElse() {
    long seed = Seeds.seed();
    Random random = new Random(seed);
    byte[] valid = VersionEditCodec.encode(new VersionEdit().setLogNumber(5).setNextFileNumber(13).setLastSequence(99)
        .setCompactPointer(1, key("k", 1)).deleteFile(1, 7).addFile(2, table(11, "a", "z", 1, 2))
        .addToBuffer(3, 8, carrying()));
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
          VersionEditCodec.decode(input, "m", 0);
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
        .removeFromBuffer(2, 40, new BufferEntry.Removed<>(Files.user("a"), Files.user("b")))
        .addToBuffer(2, 41, new BufferEntry.File<>(table(9, "c", "d", 1, 2)))
        .addToBuffer(2, 41, new BufferEntry.File<>(table(10, "f", "p", 1, 2), Files.user("g"), Files.user("h")))
        .addToBuffer(3, 42, new BufferEntry.Removed<>(Files.user("x"), Files.user("y")));
    VersionEdit back = VersionEditCodec.decode(VersionEditCodec.encode(edit), "m", 0);
    assertEquals(edit.toString(), back.toString());
    assertEquals(edit.bufferAdds(), back.bufferAdds());
    byte[] remove = VersionEditCodec.encode(new VersionEdit()
        .removeFromBuffer(1, 5, new BufferEntry.Removed<>(Files.user("k"), Files.user("k"))));
    assertArrayEquals(new byte[] {17, 1, 5, 1, 'k'}, remove);
    byte[] marker = VersionEditCodec.encode(new VersionEdit()
        .addToBuffer(1, 5, new BufferEntry.Removed<>(Files.user("k"), Files.user("m"))));
    assertArrayEquals(new byte[] {16, 1, 5, 2, 1, 'k', 1, 'm'}, marker);
  }

  @Test
  void badBufferEntriesAreCorruption() {
    byte[] unknownKind = new ByteSink().putVarint32(16).putVarint32(1).putVarint64(5).putVarint32(9).toByteArray();
    CorruptionException e = assertThrows(CorruptionException.class, () -> VersionEditCodec.decode(unknownKind, "m", 10));
    assertEquals(13, e.offset());
    byte[] inverted = new ByteSink().putVarint32(16).putVarint32(1).putVarint64(5).putVarint32(2)
        .putLengthPrefixed(Files.user("z")).putLengthPrefixed(Files.user("a")).toByteArray();
    assertThrows(CorruptionException.class, () -> VersionEditCodec.decode(inverted, "m", 0));
    byte[] truncated = new ByteSink().putVarint32(17).putVarint32(1).putVarint64(5).toByteArray();
    assertThrows(CorruptionException.class, () -> VersionEditCodec.decode(truncated, "m", 0));
    // A part whose range reaches outside its file's keys (the file holds f..p).
    byte[] part = VersionEditCodec.encode(new VersionEdit()
        .addToBuffer(1, 5, new BufferEntry.File<>(table(10, "f", "p", 1, 2), Files.user("g"), Files.user("h"))));
    byte[] outside = new String(part, java.nio.charset.StandardCharsets.ISO_8859_1).replace("\u0001g\u0001h", "\u0001a\u0001h")
        .getBytes(java.nio.charset.StandardCharsets.ISO_8859_1);
    assertEquals(part.length, outside.length);
    CorruptionException c = assertThrows(CorruptionException.class, () -> VersionEditCodec.decode(outside, "m", 0));
    assertTrue(c.getMessage().contains("reaches outside its file"), c.getMessage());
  }

  /** #20[c..m] carrying {[#21[c..d]+{[removed[c..c]] [#23[c..d]]}, removed[e..f]] [#22[c..k]]}. */
  private static BufferEntry.File<FileMetaData> carrying() {
    BufferEntry.File<FileMetaData> inner = new BufferEntry.File<>(table(21, "c", "d", 1, 2)).withCarried(List.of(
        new BufferRun<>(-3, List.of(new BufferEntry.Removed<>(Files.user("c"), Files.user("c")))),
        new BufferRun<>(-4, List.of(new BufferEntry.File<>(table(23, "c", "d", 1, 2))))));
    return new BufferEntry.File<>(table(20, "a", "z", 1, 2), Files.user("c"), Files.user("m")).withCarried(List.of(
        new BufferRun<>(7, List.of(inner, new BufferEntry.Removed<>(Files.user("e"), Files.user("f")))),
        new BufferRun<>(6, List.of(new BufferEntry.File<>(table(22, "b", "q", 1, 2), Files.user("c"), Files.user("k"))))));
  }

  @Test
  void carriedBuffersRoundTripNestedAndPinTheirLayout() {
    VersionEdit edit = new VersionEdit().addToBuffer(2, 41, carrying());
    VersionEdit back = VersionEditCodec.decode(VersionEditCodec.encode(edit), "m", 0);
    assertEquals(edit.bufferAdds(), back.bufferAdds());
    assertEquals(edit.toString(), back.toString());
    BufferEntry.File<FileMetaData> marker = new BufferEntry.File<>(table(9, "a", "z", 1, 2), Files.user("c"), Files.user("m"))
        .withCarried(List.of(new BufferRun<>(-1, List.of(new BufferEntry.Removed<>(Files.user("d"), Files.user("e"))))));
    byte[] bytes = VersionEditCodec.encode(new VersionEdit().addToBuffer(1, 5, marker));
    byte[] file = VersionEditCodec.encode(new VersionEdit().addToBuffer(1, 5, new BufferEntry.File<>(table(9, "a", "z", 1, 2))));
    byte[] metadata = Arrays.copyOfRange(file, 4, file.length); // after tag, level, table id, kind
    ByteSink expected = new ByteSink().putVarint32(16).putVarint32(1).putVarint64(5).putVarint32(4);
    expected.putBytes(metadata).putLengthPrefixed(Files.user("c")).putLengthPrefixed(Files.user("m"))
        .putVarint32(1).putVarint64(-1).putVarint32(1)
        .putVarint32(2).putLengthPrefixed(Files.user("d")).putLengthPrefixed(Files.user("e"));
    assertArrayEquals(expected.toByteArray(), bytes);
  }

  @Test
  void badCarriedBuffersAreCorruption() {
    BufferEntry.File<FileMetaData> ok = new BufferEntry.File<>(table(9, "a", "z", 1, 2), Files.user("c"), Files.user("m"))
        .withCarried(List.of(new BufferRun<>(1, List.of(new BufferEntry.File<>(table(8, "c", "d", 1, 2))))));
    String good = latin1(VersionEditCodec.encode(new VersionEdit().addToBuffer(1, 5, ok)));
    // The carrier narrowed from c..m to e..m: the carried file's c..d reaches outside it.
    String outside = good.replace("\u0001c\u0001m", "\u0001e\u0001m");
    assertTrue(!outside.equals(good));
    CorruptionException e = assertThrows(CorruptionException.class, () -> VersionEditCodec.decode(bytes(outside), "m", 0));
    assertTrue(e.getMessage().contains("reaches outside its range"), e.getMessage());
    // No table carried: a carrying kind must carry something.
    byte[] none = new ByteSink().putVarint32(16).putVarint32(1).putVarint64(5).putVarint32(4)
        .putBytes(Arrays.copyOfRange(VersionEditCodec.encode(new VersionEdit()
            .addToBuffer(1, 5, new BufferEntry.File<>(table(9, "a", "z", 1, 2)))), 4, 4 + metadataLength()))
        .putLengthPrefixed(Files.user("c")).putLengthPrefixed(Files.user("m")).putVarint32(0).toByteArray();
    e = assertThrows(CorruptionException.class, () -> VersionEditCodec.decode(none, "m", 0));
    assertTrue(e.getMessage().contains("carries no table"), e.getMessage());
    // A table count no record could hold.
    byte[] huge = new ByteSink().putVarint32(16).putVarint32(1).putVarint64(5).putVarint32(4)
        .putBytes(Arrays.copyOfRange(VersionEditCodec.encode(new VersionEdit()
            .addToBuffer(1, 5, new BufferEntry.File<>(table(9, "a", "z", 1, 2)))), 4, 4 + metadataLength()))
        .putLengthPrefixed(Files.user("c")).putLengthPrefixed(Files.user("m")).putVarint32(1 << 30).toByteArray();
    e = assertThrows(CorruptionException.class, () -> VersionEditCodec.decode(huge, "m", 0));
    assertTrue(e.getMessage().contains("exceeds the bytes remaining"), e.getMessage());
    // Nesting deeper than the levels: each level carries the next, one file deep.
    BufferEntry.File<FileMetaData> deep = new BufferEntry.File<>(table(30, "a", "z", 1, 2));
    for (int i = 0; i <= dev.cairn.Options.MAX_LEVELS; i++) {
      deep = new BufferEntry.File<>(table(31 + i, "a", "z", 1, 2)).withCarried(List.of(new BufferRun<>(1, List.of(deep))));
    }
    byte[] tooDeep = VersionEditCodec.encode(new VersionEdit().addToBuffer(1, 5, deep));
    e = assertThrows(CorruptionException.class, () -> VersionEditCodec.decode(tooDeep, "m", 0));
    assertTrue(e.getMessage().contains("nest deeper"), e.getMessage());
  }

  /** Bytes of a whole file's metadata as buffer entries encode it. */
  private static int metadataLength() {
    return VersionEditCodec.encode(new VersionEdit().addToBuffer(1, 5, new BufferEntry.File<>(table(9, "a", "z", 1, 2)))).length - 4;
  }

  private static String latin1(byte[] b) {
    return new String(b, java.nio.charset.StandardCharsets.ISO_8859_1);
  }

  private static byte[] bytes(String latin1) {
    return latin1.getBytes(java.nio.charset.StandardCharsets.ISO_8859_1);
  }
}
