package dev.cairn.db;

import dev.cairn.CairnException;
import dev.cairn.CorruptionException;
import dev.cairn.fs.FileNames;
import dev.cairn.fs.FileSystem;
import dev.cairn.fs.IoTag;
import dev.cairn.fs.ReadableFile;
import dev.cairn.fs.WritableFile;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.function.Consumer;

/**
 * The file work that checkpoints, backups and restores share: copying a file's first bytes in
 * chunks, clearing what an interrupted copy left in its building directory, and writing a small
 * file so that it appears whole or not at all.
 */
final class CopyFiles {
  static final int CHUNK_BYTES = BackupRecord.CHUNK_BYTES;

  private CopyFiles() {}

  /**
   * Reads the first {@code length} bytes of {@code from} on {@code fs} in chunks of {@link
   * #CHUNK_BYTES}, handing each to {@code chunk} (its position at the chunk's start); a file that
   * ends sooner is a {@link CorruptionException} with the offset where it ends.
   */
  static void readChunks(FileSystem fs, Path from, long length, Consumer<ByteBuffer> chunk) throws IOException {
    ByteBuffer buffer = ByteBuffer.allocate(CHUNK_BYTES);
    try (ReadableFile in = fs.openReadable(from)) {
      for (long at = 0; at < length; ) {
        buffer.clear().limit((int) Math.min(CHUNK_BYTES, length - at));
        int n = in.read(at, buffer, IoTag.OTHER);
        if (n < buffer.limit()) {
          throw new CorruptionException(from.toString(), at + n, "the file ends here, before its " + length + " bytes");
        }
        buffer.flip();
        chunk.accept(buffer);
        at += n;
      }
    }
  }

  /**
   * Copies the first {@code length} bytes of {@code from} (on {@code source}) into {@code to} (on
   * {@code target}, created and synced), handing each chunk to {@code seen} before it is written.
   * A file already named {@code to} loses that name first, never its bytes: it may be a hard link
   * to a live table.
   */
  static void copy(FileSystem source, Path from, long length, FileSystem target, Path to, Consumer<ByteBuffer> seen)
      throws IOException {
    target.delete(to);
    try (WritableFile out = target.create(to, IoTag.OTHER)) {
      readChunks(source, from, length, chunk -> {
        seen.accept(chunk.duplicate());
        try {
          out.append(chunk);
        } catch (IOException e) {
          throw new java.io.UncheckedIOException(e); // unwrapped below
        }
      });
      out.sync();
    } catch (java.io.UncheckedIOException e) {
      throw e.getCause();
    }
  }

  /**
   * Whether the first {@code length} bytes of {@code a} (on {@code fsA}) are those of {@code b}
   * (on {@code fsB}); {@code b} ending sooner is a difference, {@code a} ending sooner a {@link
   * CorruptionException}. Each chunk of {@code a} found equal goes to {@code seenA} in order (a
   * view of a buffer reused for the next chunk): all of {@code a}'s bytes when the answer is yes.
   */
  static boolean sameBytes(FileSystem fsA, Path a, FileSystem fsB, Path b, long length, Consumer<ByteBuffer> seenA)
      throws IOException {
    ByteBuffer x = ByteBuffer.allocate(CHUNK_BYTES);
    ByteBuffer y = ByteBuffer.allocate(CHUNK_BYTES);
    try (ReadableFile inA = fsA.openReadable(a); ReadableFile inB = fsB.openReadable(b)) {
      for (long at = 0; at < length; ) {
        int want = (int) Math.min(CHUNK_BYTES, length - at);
        x.clear().limit(want);
        y.clear().limit(want);
        int n = readFully(inA, at, x);
        if (n < want) {
          throw new CorruptionException(a.toString(), at + n, "the file ends here, before its " + length + " bytes");
        }
        if (readFully(inB, at, y) < want || !x.flip().equals(y.flip())) {
          return false;
        }
        seenA.accept(x.duplicate());
        at += want;
      }
    }
    return true;
  }

  /** Reads from {@code at} until {@code buffer} is full or the file ends; returns the bytes read. */
  private static int readFully(ReadableFile in, long at, ByteBuffer buffer) throws IOException {
    int total = 0;
    while (buffer.hasRemaining()) {
      int n = in.read(at + total, buffer, IoTag.OTHER);
      if (n <= 0) {
        break;
      }
      total += n;
    }
    return total;
  }

  /**
   * Clears {@code building}, the directory an interrupted copy left, keeping the directory and its
   * file {@code keep}: deletes the other files when all are of {@code kinds}; refuses, changing
   * nothing, when it holds anything else ({@code what} names the operation in the message).
   */
  static void clearLeftover(FileSystem fs, Path building, Set<FileNames.Kind> kinds, String what, String keep)
      throws IOException {
    List<String> names = fs.list(building);
    for (String name : names) {
      if (!kinds.contains(FileNames.parse(name).kind())) {
        throw new CairnException(building + " holds " + name + ", which no " + what + " writes: it is not the leftover"
            + " of an interrupted " + what + ", so it is left alone; move it away");
      }
    }
    for (String name : names) {
      if (!name.equals(keep)) {
        fs.delete(building.resolve(name));
      }
    }
  }

  /** Deletes {@code directory} and the files in it, if it exists. */
  static void removeDirectory(FileSystem fs, Path directory) throws IOException {
    if (!fs.exists(directory)) {
      return;
    }
    for (String name : fs.list(directory)) {
      fs.delete(directory.resolve(name));
    }
    fs.delete(directory);
  }

  /** Writes {@code content} to {@code path} as {@code path.partial}, synced, renamed, its directory synced. */
  static void writeWhole(FileSystem fs, Path path, byte[] content) throws IOException {
    Path partial = path.resolveSibling(path.getFileName() + ".partial");
    try (WritableFile out = fs.create(partial, IoTag.OTHER)) {
      out.append(content);
      out.sync();
    }
    fs.rename(partial, path);
    fs.syncDirectory(path.getParent());
  }
}
