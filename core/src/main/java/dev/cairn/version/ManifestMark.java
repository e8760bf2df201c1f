package dev.cairn.version;

import dev.cairn.fs.FileNames;
import dev.cairn.fs.FileSystem;
import java.io.IOException;
import java.nio.file.Path;

/**
 * Where a database's manifest stands: the manifest CURRENT names and its length. Its owner appends
 * to the manifest or switches CURRENT with every flush and compaction, so two equal marks mean no
 * table was added or deleted in between. A read-only view compares them to tell "changed
 * underneath" from damage.
 *
 * @param manifestNumber the manifest CURRENT names; -1 when CURRENT cannot be read
 * @param manifestBytes its length; -1 when it cannot be read
 */
public record ManifestMark(long manifestNumber, long manifestBytes) {
  /** The mark now; never throws (an unreadable state is a mark of its own). */
  public static ManifestMark read(FileSystem fs, Path dir) {
    long number;
    try {
      number = CurrentFile.read(fs, dir);
    } catch (IOException | RuntimeException e) {
      return new ManifestMark(-1, -1);
    }
    try {
      return new ManifestMark(number, fs.size(dir.resolve(FileNames.manifest(number))));
    } catch (IOException | RuntimeException e) {
      return new ManifestMark(number, -1);
    }
  }
}
