package dev.cairn.version;

import dev.cairn.CorruptionException;
import dev.cairn.Options;
import dev.cairn.key.InternalKey;
import dev.cairn.key.UserKeys;
import dev.cairn.model.BufferEntry;
import dev.cairn.model.BufferRun;
import dev.cairn.util.ByteSink;
import dev.cairn.util.ByteSource;
import dev.cairn.version.VersionEdit.BufferAdd;
import dev.cairn.version.VersionEdit.BufferRemove;
import dev.cairn.version.VersionEdit.DeletedFile;
import dev.cairn.version.VersionEdit.FooterUpdate;
import dev.cairn.version.VersionEdit.NewFile;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The manifest codec of a {@link VersionEdit}: {@link #encode} writes an edit as one manifest
 * record, {@link #decode} reads one back. A record is a sequence of (varint32 tag, value) pairs;
 * the tags are {@link Tag} persistent ids, and compaction-buffer entries start with a persistent
 * kind ({@code KIND_*}). docs/manifest_format.md specifies the layout ("Version edit encoding"),
 * the format versions ("Format version") and what is corruption. Stateless.
 */
public final class VersionEditCodec {
  /** The manifest format this code writes and the newest it reads. */
  public static final int CURRENT_FORMAT_VERSION = 5;
  /** What a manifest without {@link Tag#VALUE_FORMAT} says: older readers can read it. */
  public static final int PLAIN_VALUES_FORMAT_VERSION = 4;

  /** Manifest tags. The ids are written to disk and never change or get reused. */
  enum Tag {
    FORMAT_VERSION(1),
    LOG_NUMBER(2),
    NEXT_FILE_NUMBER(3),
    LAST_SEQUENCE(4),
    COMPACT_POINTER(5),
    DELETED_FILE(6),
    NEW_FILE(7),
    /** A file or removed marker enters a buffer run (LSbM); since format 2. */
    BUFFER_ADD(16),
    /** An entry leaves a buffer run (LSbM); since format 2. */
    BUFFER_REMOVE(17),
    /**
     * Block compaction appended to a live table: level, then the table's new metadata (same
     * layout as {@link #NEW_FILE}); the file stays at its level under its number. Since format 2.
     */
    FOOTER_UPDATE(18),
    /** The database's value format ({@link VersionEdit#valueFormat()}); since format 5. */
    VALUE_FORMAT(19),
    /**
     * Its tables may hold range tombstones from here on ({@link VersionEdit#markRangeDeletions()});
     * a varint32 1. A release before range deletions refuses the manifest at this tag.
     */
    RANGE_DELETIONS(20);

    final int persistentId;

    Tag(int persistentId) {
      this.persistentId = persistentId;
    }

    static Tag fromPersistentId(int id) {
      for (Tag t : values()) {
        if (t.persistentId == id) {
          return t;
        }
      }
      return null;
    }
  }

  /** {@code BUFFER_ADD} entry kinds (persistent). */
  private static final int KIND_FILE = 1;
  private static final int KIND_REMOVED = 2;
  /** A part of a file the trim left (its key range narrower than the file's); since format 3. */
  private static final int KIND_FILE_PART = 3;
  /** A file or part carrying its former level's buffer (tables of nested entries); since format 4. */
  private static final int KIND_FILE_CARRYING = 4;
  /**
   * How deep carried buffers may nest: one level per merge down the tree, so never more than
   * the levels; a deeper record is corruption (and cannot overflow the decoder's stack).
   */
  private static final int MAX_CARRY_DEPTH = Options.MAX_LEVELS;

  private VersionEditCodec() {}

  /**
   * The manifest record of {@code edit}. {@code FORMAT_VERSION}, when present, is always the first
   * tag.
   */
  public static byte[] encode(VersionEdit edit) {
    ByteSink out = new ByteSink(64 + edit.newFiles().size() * 64);
    if (edit.hasFormatVersion()) {
      out.putVarint32(Tag.FORMAT_VERSION.persistentId).putVarint32(edit.formatVersion());
    }
    if (edit.hasLogNumber()) {
      out.putVarint32(Tag.LOG_NUMBER.persistentId).putVarint64(edit.logNumber());
    }
    if (edit.hasNextFileNumber()) {
      out.putVarint32(Tag.NEXT_FILE_NUMBER.persistentId).putVarint64(edit.nextFileNumber());
    }
    if (edit.valueFormat() != 0) {
      out.putVarint32(Tag.VALUE_FORMAT.persistentId).putVarint32(edit.valueFormat());
    }
    if (edit.marksRangeDeletions()) {
      out.putVarint32(Tag.RANGE_DELETIONS.persistentId).putVarint32(1);
    }
    if (edit.hasLastSequence()) {
      out.putVarint32(Tag.LAST_SEQUENCE.persistentId).putVarint64(edit.lastSequence());
    }
    for (Map.Entry<Integer, byte[]> e : edit.compactPointers().entrySet()) {
      out.putVarint32(Tag.COMPACT_POINTER.persistentId).putVarint32(e.getKey()).putLengthPrefixed(e.getValue());
    }
    for (DeletedFile d : edit.deletedFiles()) {
      out.putVarint32(Tag.DELETED_FILE.persistentId).putVarint32(d.level()).putVarint64(d.number());
    }
    for (NewFile n : edit.newFiles()) {
      out.putVarint32(Tag.NEW_FILE.persistentId).putVarint32(n.level());
      encodeFile(out, n.file());
    }
    for (FooterUpdate u : edit.footerUpdates()) {
      out.putVarint32(Tag.FOOTER_UPDATE.persistentId).putVarint32(u.level());
      encodeFile(out, u.file());
    }
    for (BufferRemove r : edit.bufferRemoves()) {
      out.putVarint32(Tag.BUFFER_REMOVE.persistentId).putVarint32(r.level()).putVarint64(r.runId())
          .putLengthPrefixed(r.smallestUserKey());
    }
    for (BufferAdd a : edit.bufferAdds()) {
      out.putVarint32(Tag.BUFFER_ADD.persistentId).putVarint32(a.level()).putVarint64(a.runId());
      encodeEntry(out, a.entry());
    }
    return out.toByteArray();
  }

  private static void encodeEntry(ByteSink out, BufferEntry<FileMetaData> entry) {
    if (entry instanceof BufferEntry.File<FileMetaData> f && !f.carried().isEmpty()) {
      out.putVarint32(KIND_FILE_CARRYING);
      encodeFile(out, f.meta());
      out.putLengthPrefixed(f.smallestUserKey()).putLengthPrefixed(f.largestUserKey());
      out.putVarint32(f.carried().size());
      for (BufferRun<FileMetaData> t : f.carried()) {
        out.putVarint64(t.id()).putVarint32(t.entries().size());
        for (BufferEntry<FileMetaData> e : t.entries()) {
          encodeEntry(out, e);
        }
      }
    } else if (entry instanceof BufferEntry.File<FileMetaData> f && f.whole()) {
      out.putVarint32(KIND_FILE);
      encodeFile(out, f.meta());
    } else if (entry instanceof BufferEntry.File<FileMetaData> f) {
      out.putVarint32(KIND_FILE_PART);
      encodeFile(out, f.meta());
      out.putLengthPrefixed(f.smallestUserKey()).putLengthPrefixed(f.largestUserKey());
    } else {
      // A filter marker's filter lives in memory only: the manifest keeps a plain marker, which
      // stops every walk the filter marker stops, and more (docs/compaction.md, "Filter markers").
      BufferEntry.Removed<FileMetaData> m = (BufferEntry.Removed) entry;
      out.putVarint32(KIND_REMOVED).putLengthPrefixed(m.smallestUserKey()).putLengthPrefixed(m.largestUserKey());
    }
  }

  private static void encodeFile(ByteSink out, FileMetaData f) {
    out.putVarint64(f.number()).putVarint64(f.footerOffset())
        .putVarint64(f.validBytes()).putVarint64(f.totalBytes())
        .putLengthPrefixed(f.smallest()).putLengthPrefixed(f.largest())
        .putVarint64(f.entries()).putVarint64(f.smallestSequence()).putVarint64(f.largestSequence());
  }

  /**
   * Decodes a manifest record read at {@code offset} of {@code fileName}.
   *
   * @throws NewerFormatVersionException at a format version newer than {@link
   *     #CURRENT_FORMAT_VERSION}, before any tag of that newer format is looked at
   * @throws CorruptionException for anything else that is not a valid edit (unknown or reserved
   *     tag, truncated value, out-of-range level, invalid file metadata), naming the file and the
   *     offset of the bad byte
   */
  public static VersionEdit decode(byte[] record, String fileName, long offset) {
    ByteSource in = new ByteSource(record, fileName, offset);
    // Each value is checked here before a setter sees it: a bad record is corruption, never the
    // setters' IllegalArgumentException.
    VersionEdit edit = new VersionEdit();
    while (in.hasRemaining()) {
      long tagOffset = offset + in.position();
      int id = in.getVarint32();
      Tag tag = Tag.fromPersistentId(id);
      if (tag == null) {
        throw new CorruptionException(fileName, tagOffset, "unknown version edit tag " + Integer.toUnsignedString(id));
      }
      switch (tag) {
        case FORMAT_VERSION -> {
          int version = in.getVarint32();
          if (version <= 0) {
            throw in.corruption("format version out of range: " + Integer.toUnsignedString(version));
          }
          if (version > CURRENT_FORMAT_VERSION) {
            throw new NewerFormatVersionException(fileName, version);
          }
          edit.setFormatVersion(version);
        }
        case VALUE_FORMAT -> {
          int format = in.getVarint32();
          if (format != VersionEdit.VALUES_WITH_WRITE_TIME) {
            throw in.corruption("unknown value format " + Integer.toUnsignedString(format));
          }
          edit.setValueFormat(format);
        }
        case RANGE_DELETIONS -> {
          if (in.getVarint32() != 1) {
            throw in.corruption("bad range deletions mark");
          }
          edit.markRangeDeletions();
        }
        case LOG_NUMBER -> edit.setLogNumber(nonNegative(in, "log number"));
        case NEXT_FILE_NUMBER -> edit.setNextFileNumber(nonNegative(in, "next file number"));
        case LAST_SEQUENCE -> {
          long sequence = in.getVarint64();
          if (sequence < 0 || sequence > InternalKey.MAX_SEQUENCE) {
            throw in.corruption("last sequence out of range: " + Long.toUnsignedString(sequence));
          }
          edit.setLastSequence(sequence);
        }
        case COMPACT_POINTER -> {
          int level = level(in);
          edit.setCompactPointer(level, in.getLengthPrefixed());
        }
        case DELETED_FILE -> {
          int level = level(in);
          edit.deleteFile(level, nonNegative(in, "file number"));
        }
        case NEW_FILE -> {
          int level = level(in);
          edit.addFile(level, decodeFile(in));
        }
        case FOOTER_UPDATE -> {
          int level = level(in);
          edit.updateFooter(level, decodeFile(in));
        }
        case BUFFER_ADD -> {
          int level = level(in);
          long runId = in.getVarint64(); // any long: ids below the oldest run may be <= 0
          BufferEntry<FileMetaData> entry = decodeEntry(in, fileName, offset, 0);
          edit.addToBuffer(level, runId, entry);
        }
        case BUFFER_REMOVE -> {
          int level = level(in);
          long runId = in.getVarint64(); // any long: ids below the oldest run may be <= 0
          edit.removeFromBuffer(level, runId, in.getLengthPrefixed());
        }
        default -> throw new AssertionError("tag " + tag + " not handled");
      }
    }
    return edit;
  }

  /** One buffer entry at {@code in}, whose record starts at {@code offset} of {@code fileName}. */
  private static BufferEntry<FileMetaData> decodeEntry(ByteSource in, String fileName, long offset, int depth) {
    long kindOffset = offset + in.position();
    int kind = in.getVarint32();
    return switch (kind) {
      case KIND_FILE -> new BufferEntry.File<>(decodeFile(in));
      case KIND_FILE_PART -> {
        FileMetaData file = decodeFile(in);
        byte[][] range = partRange(in, file);
        yield new BufferEntry.File<>(file, range[0], range[1]);
      }
      case KIND_FILE_CARRYING -> {
        if (depth >= MAX_CARRY_DEPTH) {
          throw new CorruptionException(fileName, kindOffset, "carried buffers nest deeper than " + MAX_CARRY_DEPTH);
        }
        FileMetaData file = decodeFile(in);
        byte[][] range = partRange(in, file);
        int tableCount = count(in, "carried table count");
        List<BufferRun<FileMetaData>> tables = new ArrayList<>(tableCount);
        for (int i = 0; i < tableCount; i++) {
          long tableOffset = offset + in.position();
          long id = in.getVarint64();
          int entryCount = count(in, "carried entry count");
          List<BufferEntry<FileMetaData>> entries = new ArrayList<>(entryCount);
          for (int j = 0; j < entryCount; j++) {
            entries.add(decodeEntry(in, fileName, offset, depth + 1));
          }
          try {
            tables.add(new BufferRun<>(id, entries));
          } catch (IllegalArgumentException e) {
            throw new CorruptionException(fileName, tableOffset, "carried " + e.getMessage());
          }
        }
        if (tables.isEmpty()) {
          throw new CorruptionException(fileName, kindOffset, "buffer file #" + file.number() + " carries no table");
        }
        try {
          yield new BufferEntry.File<>(file, range[0], range[1], tables);
        } catch (IllegalArgumentException e) {
          throw new CorruptionException(fileName, kindOffset, e.getMessage());
        }
      }
      case KIND_REMOVED -> {
        byte[] smallest = in.getLengthPrefixed();
        byte[] largest = in.getLengthPrefixed();
        if (UserKeys.compare(smallest, largest) > 0) {
          throw in.corruption("removed marker's smallest key is above its largest");
        }
        yield new BufferEntry.Removed<>(smallest, largest);
      }
      default -> throw new CorruptionException(fileName, kindOffset,
          "unknown buffer entry kind " + Integer.toUnsignedString(kind));
    };
  }

  /** A part's smallest and largest user keys, checked to be a range within its file's keys. */
  private static byte[][] partRange(ByteSource in, FileMetaData file) {
    byte[] smallest = in.getLengthPrefixed();
    byte[] largest = in.getLengthPrefixed();
    if (UserKeys.compare(smallest, largest) > 0 || UserKeys.compare(smallest, file.smallestUserKey()) < 0
        || UserKeys.compare(largest, file.largestUserKey()) > 0) {
      throw in.corruption("buffer file part's range is empty or reaches outside its file");
    }
    return new byte[][] {smallest, largest};
  }

  /** A count of items that follow, each at least one byte: no more than the bytes remaining. */
  private static int count(ByteSource in, String what) {
    int n = in.getVarint32();
    if (n < 0 || n > in.remaining()) {
      throw in.corruption(what + " " + Integer.toUnsignedString(n) + " exceeds the bytes remaining");
    }
    return n;
  }

  private static FileMetaData decodeFile(ByteSource in) {
    int start = in.position();
    long number = nonNegative(in, "file number");
    long footerOffset = nonNegative(in, "footer offset");
    long validBytes = nonNegative(in, "valid bytes");
    long totalBytes = nonNegative(in, "total bytes");
    byte[] smallest = in.getLengthPrefixed();
    byte[] largest = in.getLengthPrefixed();
    long entries = nonNegative(in, "entry count");
    long smallestSequence = nonNegative(in, "smallest sequence");
    long largestSequence = nonNegative(in, "largest sequence");
    String problem = FileMetaData.validate(number, footerOffset, validBytes, totalBytes, smallest,
        largest, entries, smallestSequence, largestSequence);
    if (problem != null) {
      throw in.corruption("invalid metadata of file " + number + " (encoded " + (in.position() - start)
          + " bytes back): " + problem);
    }
    return new FileMetaData(number, footerOffset, validBytes, totalBytes, smallest, largest,
        entries, smallestSequence, largestSequence);
  }

  private static int level(ByteSource in) {
    int level = in.getVarint32();
    if (level < 0 || level >= Options.MAX_LEVELS) {
      throw in.corruption("level " + Integer.toUnsignedString(level) + " outside 0.." + (Options.MAX_LEVELS - 1));
    }
    return level;
  }

  private static long nonNegative(ByteSource in, String what) {
    long v = in.getVarint64();
    if (v < 0) {
      throw in.corruption(what + " out of range: " + Long.toUnsignedString(v));
    }
    return v;
  }
}
