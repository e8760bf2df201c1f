package dev.cairn.version;

import dev.cairn.CorruptionException;
import dev.cairn.fs.FileNames;
import dev.cairn.fs.FileSystem;
import dev.cairn.fs.IoTag;
import dev.cairn.fs.ReadableFile;
import dev.cairn.fs.WritableFile;
import dev.cairn.key.UserKeys;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

/**
 * Reads and atomically replaces {@code CURRENT}, whose whole content is the live manifest's name
 * and a newline (docs/manifest_format.md, "CURRENT").
 */
final class CurrentFile {
  /** Far more than "MANIFEST-" and 18 digits; anything longer is not a CURRENT file. */
  private static final int MAX_BYTES = 64;

  private CurrentFile() {}

  /**
   * The manifest number CURRENT names.
   *
   * @throws CorruptionException naming CURRENT if it is missing, malformed, or names a manifest
   *     that does not exist
   */
  static long read(FileSystem fs, Path dir) throws IOException {
    Path path = dir.resolve(FileNames.CURRENT);
    String file = path.toString();
    if (!fs.exists(path)) {
      throw new CorruptionException(file, 0, "CURRENT is missing");
    }
    long size = fs.size(path);
    if (size == 0 || size > MAX_BYTES) {
      throw new CorruptionException(file, 0, "CURRENT is " + size + " bytes, not a manifest name and a newline");
    }
    byte[] bytes;
    try (ReadableFile in = fs.openReadable(path)) {
      bytes = in.readFully(0, (int) size, IoTag.MANIFEST);
    }
    if (bytes[bytes.length - 1] != '\n') {
      throw new CorruptionException(file, bytes.length, "CURRENT is not newline-terminated: "
          + UserKeys.printable(bytes));
    }
    // ISO-8859-1 maps every byte, so garbage cannot fail the decoding; parse() rejects it.
    String name = new String(bytes, 0, bytes.length - 1, StandardCharsets.ISO_8859_1);
    FileNames.Parsed parsed = FileNames.parse(name);
    if (parsed.kind() != FileNames.Kind.MANIFEST || !FileNames.manifest(parsed.number()).equals(name)) {
      throw new CorruptionException(file, 0, "CURRENT does not name a manifest: " + UserKeys.printable(bytes));
    }
    if (!fs.exists(dir.resolve(name))) {
      throw new CorruptionException(file, 0, "CURRENT names " + name + ", which does not exist");
    }
    return parsed.number();
  }

  /**
   * Writes the new content to a temporary file, syncs it and renames it over CURRENT. The
   * directory is NOT synced here: the caller does, after adopting the new manifest, because once
   * the rename happened CURRENT may already name it.
   */
  static void replace(FileSystem fs, Path dir, long manifestNumber) throws IOException {
    Path temp = dir.resolve(FileNames.temp(manifestNumber));
    byte[] content = (FileNames.manifest(manifestNumber) + "\n").getBytes(StandardCharsets.US_ASCII);
    try {
      try (WritableFile out = fs.create(temp, IoTag.MANIFEST)) {
        out.append(content);
        out.sync();
      }
      fs.rename(temp, dir.resolve(FileNames.CURRENT));
    } catch (IOException | RuntimeException e) {
      try {
        fs.delete(temp); // our own temporary file; CURRENT is untouched
      } catch (IOException suppressed) {
        e.addSuppressed(suppressed);
      }
      throw e;
    }
  }
}
