package dev.cairn.tools;

import dev.cairn.CorruptionException;
import dev.cairn.fs.FileNames;
import dev.cairn.fs.FileSystem;
import dev.cairn.fs.IoTag;
import dev.cairn.fs.LocalFileSystem;
import dev.cairn.fs.ReadableFile;
import dev.cairn.table.Footer;
import dev.cairn.table.TableDump;
import dev.cairn.version.VersionEditCodec;
import dev.cairn.wal.LogReader;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;

/** Read-only renderings of a table and of a manifest for {@code cairn dump-*}. */
final class Dumps {
  private Dumps() {}

  /**
   * The table as of its last footer (the end of the file), each entry too if {@code entries}.
   * Throws a {@link CorruptionException} after the text if anything could not be read: the text
   * shows what could.
   */
  static void table(Path file, boolean entries, PrintStream out) {
    FileSystem fs = new LocalFileSystem();
    try (ReadableFile f = fs.openReadable(file)) {
      if (f.size() < Footer.SIZE) {
        throw new CorruptionException(file.toString(), 0, "not a Cairn table: " + f.size()
            + " bytes, fewer than a table's footer alone (" + Footer.SIZE + ")");
      }
      TableDump.Rendering r = TableDump.render(f, file.toString(), TableDump.lastFooterOffset(f.size()), entries);
      out.print(r.text());
      if (r.damage() > 0) {
        throw new CorruptionException(file.toString(), 0, r.damage() + " damaged part(s), shown above;"
            + " not a Cairn table, or a damaged one");
      }
    } catch (IOException e) {
      throw new CairnTool.ToolFailure("reading table " + file + ": " + describe(e));
    }
  }

  /** Every version edit of the manifest CURRENT names, with its offset, one change per line. */
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
          out.append(String.format("edit at offset %d%n", offset));
          for (String line : VersionEditCodec.decode(record, manifest.toString(), offset).lines()) {
            out.append("  ").append(line).append('\n');
          }
        }
      }
      return out.toString();
    } catch (IOException e) {
      throw new CairnTool.ToolFailure("reading the manifest of " + dir + ": " + describe(e));
    }
  }

  /** What went wrong with a file, in words rather than an exception's class name. */
  static String describe(IOException e) {
    if (e instanceof NoSuchFileException n) {
      return n.getFile() + " does not exist";
    }
    if (e instanceof AccessDeniedException a) {
      return "permission denied on " + a.getFile();
    }
    if (e instanceof FileSystemException f && f.getReason() != null) {
      return (f.getFile() != null ? f.getFile() + ": " : "") + f.getReason();
    }
    return e.getMessage() != null ? e.getMessage() : "an I/O error with no message";
  }
}
