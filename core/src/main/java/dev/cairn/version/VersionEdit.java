package dev.cairn.version;

import dev.cairn.Options;
import dev.cairn.key.InternalKey;
import dev.cairn.key.UserKeys;
import dev.cairn.model.BufferEditSink;
import dev.cairn.model.BufferEntry;
import dev.cairn.model.LevelChanges;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * One change to the set of tables and the persistent counters: a record of the manifest. Built
 * by setters; {@link VersionEditCodec} encodes it and decodes it back (docs/manifest_format.md).
 * Not thread-safe.
 */
public final class VersionEdit {
  /** {@link #valueFormat()}: every value ends with a 4-byte write time (docs/format.md). */
  public static final int VALUES_WITH_WRITE_TIME = 1;

  /** A table removed from a level. */
  public record DeletedFile(int level, long number) {}

  /** A table added to a level. */
  public record NewFile(int level, FileMetaData file) {}

  /** A live table of a level whose footer moved (block compaction appended to it). */
  public record FooterUpdate(int level, FileMetaData file) {}
  /** An entry added to buffer run {@code runId} of {@code level}. */
  public record BufferAdd(int level, long runId, BufferEntry<FileMetaData> entry) {}

  /** The entry starting at {@code smallestUserKey} removed from buffer run {@code runId}. */
  public record BufferRemove(int level, long runId, byte[] smallestUserKey) {}

  private int formatVersion; // 0: absent
  private long logNumber = -1;
  private long nextFileNumber = -1;
  private long lastSequence = -1;
  private int valueFormat; // 0: absent (values as written)
  private boolean rangeDeletions; // see markRangeDeletions
  private final Map<Integer, byte[]> compactPointers = new TreeMap<>();
  private final Set<DeletedFile> deletedFiles = new LinkedHashSet<>();
  private final List<NewFile> newFiles = new ArrayList<>();
  private final List<FooterUpdate> footerUpdates = new ArrayList<>();
  private final List<BufferRemove> bufferRemoves = new ArrayList<>();
  private final List<BufferAdd> bufferAdds = new ArrayList<>();

  public boolean hasFormatVersion() {
    return formatVersion != 0;
  }

  /** The format version, or 0 if this edit carries none (only a manifest's first edit does). */
  public int formatVersion() {
    return formatVersion;
  }

  public VersionEdit setFormatVersion(int version) {
    if (version < 1) {
      throw new IllegalArgumentException("format version must be positive: " + version);
    }
    this.formatVersion = version;
    return this;
  }

  public boolean hasLogNumber() {
    return logNumber >= 0;
  }

  /** Logs numbered below this are obsolete; -1 if the edit does not set it. */
  public long logNumber() {
    return logNumber;
  }

  public VersionEdit setLogNumber(long number) {
    this.logNumber = checkNonNegative("log number", number);
    return this;
  }

  public boolean hasNextFileNumber() {
    return nextFileNumber >= 0;
  }

  /** The next file number to allocate; -1 if the edit does not set it. */
  public long nextFileNumber() {
    return nextFileNumber;
  }

  public VersionEdit setNextFileNumber(long number) {
    this.nextFileNumber = checkNonNegative("next file number", number);
    return this;
  }

  /**
   * How the database stores values: {@link #VALUES_WITH_WRITE_TIME} when each ends with its write
   * time (a TTL database), 0 (absent) when values are stored as written.
   */
  public int valueFormat() {
    return valueFormat;
  }

  public VersionEdit setValueFormat(int format) {
    if (format != VALUES_WITH_WRITE_TIME) {
      throw new IllegalArgumentException("unknown value format " + format);
    }
    this.valueFormat = format;
    return this;
  }

  /**
   * Marks the database as one whose tables may hold range tombstones (a flush wrote the first):
   * a mark that stays, so that reads of a database that never deleted a range look for none.
   */
  public VersionEdit markRangeDeletions() {
    this.rangeDeletions = true;
    return this;
  }

  public boolean marksRangeDeletions() {
    return rangeDeletions;
  }

  public boolean hasLastSequence() {
    return lastSequence >= 0;
  }

  /** The last sequence number used; -1 if the edit does not set it. */
  public long lastSequence() {
    return lastSequence;
  }

  public VersionEdit setLastSequence(long sequence) {
    if (sequence < 0 || sequence > InternalKey.MAX_SEQUENCE) {
      throw new IllegalArgumentException("last sequence out of range: " + sequence);
    }
    this.lastSequence = sequence;
    return this;
  }

  /** Sets where the next compaction of {@code level} starts (an internal or a user key). */
  public VersionEdit setCompactPointer(int level, byte[] key) {
    compactPointers.put(checkLevel(level), key.clone());
    return this;
  }

  /** Compaction pointers by level, in level order. */
  public Map<Integer, byte[]> compactPointers() {
    return Collections.unmodifiableMap(compactPointers);
  }

  public VersionEdit deleteFile(int level, long number) {
    deletedFiles.add(new DeletedFile(checkLevel(level), checkNonNegative("file number", number)));
    return this;
  }

  public Set<DeletedFile> deletedFiles() {
    return Collections.unmodifiableSet(deletedFiles);
  }

  public VersionEdit addFile(int level, FileMetaData file) {
    newFiles.add(new NewFile(checkLevel(level), file));
    return this;
  }

  public List<NewFile> newFiles() {
    return Collections.unmodifiableList(newFiles);
  }

  /** Replaces the metadata of live table {@code file.number()} at {@code level} (new footer). */
  public VersionEdit updateFooter(int level, FileMetaData file) {
    footerUpdates.add(new FooterUpdate(checkLevel(level), file));
    return this;
  }

  public List<FooterUpdate> footerUpdates() {
    return Collections.unmodifiableList(footerUpdates);
  }

  /** Adds {@code entry} to buffer run {@code runId} of {@code level} (created if new). */
  public VersionEdit addToBuffer(int level, long runId, BufferEntry<FileMetaData> entry) {
    bufferAdds.add(new BufferAdd(checkLevel(level), runId, entry));
    return this;
  }

  /** Removes {@code entry} from buffer run {@code runId} of {@code level}. */
  public VersionEdit removeFromBuffer(int level, long runId, BufferEntry<FileMetaData> entry) {
    bufferRemoves.add(new BufferRemove(checkLevel(level), runId,
        entry.smallestUserKey().clone()));
    return this;
  }

  /** What this edit does to the levels' files once applied to {@code base}, taken now (for buffer drafts). */
  public LevelChanges<FileMetaData> levelChanges(Version base) {
    return new EditLevelChanges(base, this);
  }

  /** This edit as the sink of a buffer draft's changes ({@code BufferDraft#writeTo}). */
  public BufferEditSink<FileMetaData> bufferSink() {
    return new BufferEditSink<>() {
      @Override
      public void removeFromBuffer(int level, long runId, BufferEntry<FileMetaData> entry) {
        VersionEdit.this.removeFromBuffer(level, runId, entry);
      }

      @Override
      public void addToBuffer(int level, long runId, BufferEntry<FileMetaData> entry) {
        VersionEdit.this.addToBuffer(level, runId, entry);
      }
    };
  }

  /** As {@link #removeFromBuffer(int, long, BufferEntry)}, by the entry's smallest user key (decoding). */
  VersionEdit removeFromBuffer(int level, long runId, byte[] smallestUserKey) {
    bufferRemoves.add(new BufferRemove(checkLevel(level), runId, smallestUserKey));
    return this;
  }

  /** Buffer additions, applied after every other change of the edit. */
  public List<BufferAdd> bufferAdds() {
    return Collections.unmodifiableList(bufferAdds);
  }

  /** Buffer removals, applied after level changes and before buffer additions. */
  public List<BufferRemove> bufferRemoves() {
    return Collections.unmodifiableList(bufferRemoves);
  }

  /** Whether the edit changes anything but counters (used to skip empty trims). */
  public boolean changesBuffer() {
    return !bufferAdds.isEmpty() || !bufferRemoves.isEmpty();
  }

  private static int checkLevel(int level) {
    if (level < 0 || level >= Options.MAX_LEVELS) {
      throw new IllegalArgumentException("level " + level + " outside 0.." + (Options.MAX_LEVELS - 1));
    }
    return level;
  }

  private static long checkNonNegative(String what, long value) {
    if (value < 0) {
      throw new IllegalArgumentException(what + " must not be negative: " + value);
    }
    return value;
  }

  /** A stable, readable rendering (used by tests and debugging dumps). */
  @Override
  public String toString() {
    return "VersionEdit{" + String.join(", ", lines()) + "}";
  }

  /** Each change of the edit on its own line, counters first ({@code cairn dump-manifest}). */
  public List<String> lines() {
    List<String> out = new ArrayList<>();
    if (hasFormatVersion()) {
      out.add("formatVersion=" + formatVersion);
    }
    if (hasLogNumber()) {
      out.add("logNumber=" + logNumber);
    }
    if (hasNextFileNumber()) {
      out.add("nextFileNumber=" + nextFileNumber);
    }
    if (valueFormat != 0) {
      out.add("valueFormat=" + valueFormat);
    }
    if (rangeDeletions) {
      out.add("rangeDeletions");
    }
    if (hasLastSequence()) {
      out.add("lastSequence=" + lastSequence);
    }
    compactPointers.forEach((level, key) -> out.add("compactPointer L" + level + "=" + UserKeys.printable(key)));
    deletedFiles.forEach(d -> out.add("delete L" + d.level() + " #" + d.number()));
    newFiles.forEach(n -> out.add("add L" + n.level() + " " + n.file()));
    footerUpdates.forEach(u -> out.add("footer L" + u.level() + " " + u.file()));
    bufferRemoves.forEach(r -> out.add("buffer-remove L" + r.level() + " table " + r.runId()
        + " at " + UserKeys.printable(r.smallestUserKey())));
    bufferAdds.forEach(a -> out.add("buffer-add L" + a.level() + " table " + a.runId() + " " + a.entry()));
    return out;
  }
}
