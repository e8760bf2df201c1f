package dev.cairn.db.base;

import dev.cairn.fs.FileNames;
import dev.cairn.fs.FileSystem;
import dev.cairn.version.FileMetaData;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Keeps an append in place from changing a table file that has a second name. Block compaction
 * appends to a table's file; a checkpoint links table files into its own directory. Two names are
 * one file, so an append through the database's name would change the checkpoint's table, and the
 * checkpoint's own appender, which first cuts the file to its valid length, would cut the
 * database's. Two rules rule that out:
 *
 * <ul>
 *   <li>an appender appends only to a file with one name; a table with more is rewritten into new
 *       files instead ({@link #beginAppend});
 *   <li>a checkpoint never links a table being appended: it copies that one up to its valid
 *       length, the part no append changes ({@link #linkInto}).
 * </ul>
 *
 * <p>The check and the act of each happen under this object's monitor, so that neither slips
 * between the other's; a checkpoint takes it per table, so an appender waits for one link.
 */
public final class TableLinks {
  private final FileSystem fs;

  // Guarded by this.
  private final Set<Long> appending = new HashSet<>();

  TableLinks(FileSystem fs) {
    this.fs = fs;
  }

  /**
   * Whether table {@code number}, whose file is {@code file}, may be appended in place: true when
   * the file has one name (or the file system counts none, and then this engine made no links
   * there), and then it counts as being appended until {@link #endAppend}; false when it has more
   * (a checkpoint's, a backup's): rewrite it.
   */
  public synchronized boolean beginAppend(long number, Path file) throws IOException {
    int names;
    try {
      names = fs.linkCount(file);
    } catch (UnsupportedOperationException e) {
      names = 1;
    }
    if (names > 1) {
      return false;
    }
    if (!appending.add(number)) {
      throw new IllegalStateException("table " + number + " is already being appended. This is a bug.");
    }
    return true;
  }

  /** The append {@link #beginAppend} allowed is over (written or failed). */
  public synchronized void endAppend(long number) {
    appending.remove(number);
  }

  /**
   * Links each of {@code tables}, in {@code sourceDir}, into {@code targetDir} under the same name,
   * unless it is being appended or the file system cannot link it or count its links (none at all,
   * another device): returns those it did not link, for the caller to copy up to their valid
   * length. Each table is checked and linked under the monitor, which is released between tables,
   * so that an appender waits for one link at most.
   */
  public List<FileMetaData> linkInto(Path sourceDir, Path targetDir, Collection<FileMetaData> tables) {
    List<FileMetaData> notLinked = new ArrayList<>();
    boolean linking = true;
    for (FileMetaData t : tables) {
      if (linking) {
        try {
          if (linkUnlessAppending(t, FileNames.tablePath(sourceDir, t.number()), FileNames.tablePath(targetDir, t.number()))) {
            continue;
          }
        } catch (UnsupportedOperationException | IOException e) {
          linking = false; // what failed once (no links, another device) fails for the rest
        }
      }
      notLinked.add(t);
    }
    return notLinked;
  }

  private synchronized boolean linkUnlessAppending(FileMetaData t, Path source, Path target) throws IOException {
    if (appending.contains(t.number())) {
      return false;
    }
    fs.linkCount(source); // a file system that cannot count links gets none (see linkCount)
    fs.link(source, target);
    return true;
  }
}
