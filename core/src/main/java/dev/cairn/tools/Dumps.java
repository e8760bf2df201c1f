package dev.cairn.tools;

import dev.cairn.CairnIOException;
import dev.cairn.CorruptionException;
import dev.cairn.fs.FileNames;
import dev.cairn.fs.FileSystem;
import dev.cairn.fs.IoTag;
import dev.cairn.fs.LocalFileSystem;
import dev.cairn.fs.ReadableFile;
import dev.cairn.table.TableDump;
import dev.cairn.version.VersionEditCodec;
import dev.cairn.wal.LogReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/** Read-only renderings of a table and of a manifest for {@code cairn dump-*}. */
final class Dumps {
  private Dumps() {}

  /** The table as of its last footer (the end of the file). */
  static String table(Path file) {
    FileSystem fs = new LocalFileSystem();
    try (ReadableFile f = fs.openReadable(file)) {
      return TableDump.render(f, file.toString(), TableDump.lastFooterOffset(f.size()));
    } catch (IOException e) {
      throw new CairnIOException("reading table " + file, e);
    }
  }

  /** Every version edit of the manifest CURRENT names, one per line, with its offset. */
  static String manifest(Path dir) {
    FileSystem fs = new LocalFileSystem();
    Path current = dir.resolve(FileNames.CURRENT);
    try {
      String name = Files.readString(current, StandardCharsets.UTF_8).trim();
      if (FileNames.parse(name).kind() != FileNames.Kind.MANIFEST) {
        throw new CorruptionException(current.toString(), 0, "does not name a manifest: '" + name + "'");
      }
      Path manifest = dir.resolve(name);
      StringBuilder out = new StringBuilder("manifest ").append(manifest).append('\n');
      try (ReadableFile f = fs.openReadable(manifest)) {
        LogReader reader = new LogReader(f, manifest.toString(),
            (offset, bytes, reason, atTail) -> out.append(String.format("  damage at %d (%d bytes)%s: %s%n",
                offset, bytes, atTail ? " at the tail" : "", reason)),
            IoTag.MANIFEST);
        byte[] record;
        while ((record = reader.readRecord()) != null) {
          long offset = reader.lastRecordOffset();
          out.append(String.format("@%-8d %s%n", offset, VersionEditCodec.decode(record, manifest.toString(), offset)));
        }
      }
      return out.toString();
    } catch (IOException e) {
      throw new CairnIOException("reading the manifest of " + dir, e);
    }
  }
}
