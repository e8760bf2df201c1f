package dev.cairn.version;

import dev.cairn.CorruptionException;
import dev.cairn.Options;
import dev.cairn.fs.FileSystem;
import dev.cairn.fs.IoTag;
import dev.cairn.fs.ReadableFile;
import dev.cairn.wal.LogReader;
import java.io.IOException;
import java.nio.file.Path;

/**
 * The state a manifest describes: its edits applied to an empty version, and the last value of
 * each counter. A torn last edit is ignored; see {@link VersionSet#recover()}.
 */
record ManifestReplay(VersionBuilder builder, long logNumber, long nextFileNumber,
    long lastSequence, byte[][] compactPointers, int valueFormat, boolean rangeDeletions) {

  static ManifestReplay replay(FileSystem fs, Path path) throws IOException {
    String file = path.toString();
    VersionBuilder builder = new VersionBuilder(Version.empty(v -> { }));
    long logNumber = -1;
    long nextFileNumber = -1;
    long lastSequence = -1;
    int valueFormat = 0;
    boolean rangeDeletions = false;
    byte[][] pointers = new byte[Options.MAX_LEVELS][];
    int edits = 0;
    try (ReadableFile in = fs.openReadable(path)) {
      // A torn tail is an edit whose logAndApply never returned: ignore it. Damage elsewhere
      // would silently lose acknowledged edits: fail.
      LogReader reader = new LogReader(in, file, (offset, bytes, reason, atTail) -> {
        if (!atTail) {
          throw new CorruptionException(file, offset, reason);
        }
      }, IoTag.MANIFEST);
      byte[] record;
      while ((record = reader.readRecord()) != null) {
        long offset = reader.lastRecordOffset();
        VersionEdit edit = VersionEditCodec.decode(record, file, offset);
        if (edits++ == 0 && !edit.hasFormatVersion()) {
          throw new CorruptionException(file, offset, "the manifest's first edit carries no format version");
        }
        builder.apply(edit, reason -> new CorruptionException(file, offset, reason));
        if (edit.hasLogNumber()) {
          logNumber = edit.logNumber();
        }
        if (edit.hasNextFileNumber()) {
          nextFileNumber = edit.nextFileNumber();
        }
        if (edit.hasLastSequence()) {
          lastSequence = edit.lastSequence();
        }
        if (edit.valueFormat() != 0) {
          valueFormat = edit.valueFormat();
        }
        rangeDeletions |= edit.marksRangeDeletions();
        edit.compactPointers().forEach((level, key) -> pointers[level] = key);
      }
    }
    if (edits == 0) {
      throw new CorruptionException(file, 0, "the manifest holds no version edit");
    }
    if (logNumber < 0 || nextFileNumber < 0 || lastSequence < 0) {
      throw new CorruptionException(file, 0, "the manifest never sets "
          + (logNumber < 0 ? "the log number" : nextFileNumber < 0 ? "the next file number" : "the last sequence"));
    }
    String problem = Version.checkInvariants(builder.sortedLevels());
    if (problem != null) {
      throw new CorruptionException(file, 0, "the recovered version is invalid: " + problem);
    }
    return new ManifestReplay(builder, logNumber, nextFileNumber, lastSequence, pointers, valueFormat, rangeDeletions);
  }
}
