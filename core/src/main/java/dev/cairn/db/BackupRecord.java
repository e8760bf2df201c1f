package dev.cairn.db;

import dev.cairn.BackupInfo;
import dev.cairn.CorruptionException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.CRC32C;

/**
 * One finished backup's description, the file {@code meta/ID} of a backup directory
 * (docs/operations.md, "Backups"): lines of text, the last of which checksums the others.
 *
 * <pre>
 * cairn-backup 1
 * id 7
 * created 2026-12-04T07:13:12.123Z
 * sequence 123456
 * file shared/000017_3a2b1c0d_1048576.sst 1048576 3a2b1c0d 5e1f...,0c3a...
 * file private/7/MANIFEST-000042 512 0badcafe 0badcafe
 * file private/7/CURRENT 16 77aa0011 77aa0011
 * end 1f2e3d4c
 * </pre>
 *
 * A {@code file} line gives the file's path inside the backup directory, its size, the CRC-32C
 * of its bytes and of each {@link #CHUNK_BYTES} chunk (comma-separated, so that a damaged file is
 * reported with the offset of its first damaged chunk), all in hexadecimal. {@code end} is the
 * CRC-32C of every byte before its line. Paths hold no spaces.
 */
record BackupRecord(long id, Instant created, long lastSequence, List<BackupRecord.FileEntry> files) {
  static final String MAGIC = "cairn-backup 1";
  static final int CHUNK_BYTES = 1 << 20;

  /** A file of a backup: where it is, how long, and its checksums (whole and per chunk). */
  record FileEntry(String path, long size, int crc, List<Integer> chunkCrcs) {
    FileEntry {
      if (path.isEmpty() || path.contains(" ") || path.startsWith("/") || path.contains("..")) {
        throw new IllegalArgumentException("not a path inside a backup directory: '" + path + "'");
      }
      chunkCrcs = List.copyOf(chunkCrcs);
      long chunks = Math.max(1, (size + CHUNK_BYTES - 1) / CHUNK_BYTES);
      if (chunkCrcs.size() != chunks) {
        throw new IllegalArgumentException(path + ": " + chunkCrcs.size() + " chunk checksums for " + size + " bytes");
      }
    }
  }

  BackupRecord {
    files = List.copyOf(files);
  }

  BackupInfo info() {
    return new BackupInfo(id, created, lastSequence, files.size(), files.stream().mapToLong(FileEntry::size).sum());
  }

  byte[] render() {
    StringBuilder b = new StringBuilder();
    b.append(MAGIC).append('\n');
    b.append("id ").append(id).append('\n');
    b.append("created ").append(created).append('\n');
    b.append("sequence ").append(lastSequence).append('\n');
    for (FileEntry f : files) {
      b.append("file ").append(f.path()).append(' ').append(f.size()).append(' ').append(hex(f.crc())).append(' ');
      for (int i = 0; i < f.chunkCrcs().size(); i++) {
        b.append(i == 0 ? "" : ",").append(hex(f.chunkCrcs().get(i)));
      }
      b.append('\n');
    }
    byte[] body = b.toString().getBytes(StandardCharsets.US_ASCII);
    return (b + "end " + hex(crc(body, body.length)) + "\n").getBytes(StandardCharsets.US_ASCII);
  }

  /**
   * Reads {@code content}, the file {@code name}; a torn, damaged or foreign file is a {@link
   * CorruptionException} naming it and the offset of the line at fault.
   */
  static BackupRecord parse(String name, byte[] content) {
    String text = new String(content, StandardCharsets.US_ASCII);
    int endLine = text.lastIndexOf("\nend ");
    if (!text.startsWith(MAGIC + "\n")) {
      throw new CorruptionException(name, 0, "not a Cairn backup record (no '" + MAGIC + "' line)");
    }
    if (endLine < 0 || !text.endsWith("\n")) {
      throw new CorruptionException(name, content.length, "no 'end' line: the record is cut short");
    }
    String recorded = text.substring(endLine + 5, text.length() - 1);
    int actual = crc(content, endLine + 1);
    if (!recorded.equals(hex(actual))) {
      throw new CorruptionException(name, endLine + 1, "checksum " + hex(actual) + " where the record says " + recorded);
    }
    long id = -1;
    long sequence = -1;
    Instant created = null;
    List<FileEntry> files = new ArrayList<>();
    int at = MAGIC.length() + 1;
    for (String line : text.substring(at, endLine + 1).split("\n")) {
      String[] w = line.split(" ");
      try {
        switch (w[0]) {
          case "id" -> id = Long.parseLong(w[1]);
          case "created" -> created = Instant.parse(w[1]);
          case "sequence" -> sequence = Long.parseLong(w[1]);
          case "file" -> {
            List<Integer> chunks = new ArrayList<>();
            for (String c : w[4].split(",")) {
              chunks.add(Integer.parseUnsignedInt(c, 16));
            }
            files.add(new FileEntry(w[1], Long.parseLong(w[2]), Integer.parseUnsignedInt(w[3], 16), chunks));
          }
          default -> throw new IllegalArgumentException("unknown line");
        }
      } catch (RuntimeException e) { // parse errors, missing words, DateTimeParseException
        String why = e instanceof DateTimeParseException ? "a bad time" : e.getMessage();
        throw new CorruptionException(name, at, "cannot read '" + line + "': " + why);
      }
      at += line.length() + 1;
    }
    if (id < 0 || sequence < 0 || created == null) {
      throw new CorruptionException(name, 0, "the id, created or sequence line is missing");
    }
    return new BackupRecord(id, created, sequence, files);
  }

  static String hex(int crc) {
    return String.format("%08x", crc);
  }

  private static int crc(byte[] bytes, int length) {
    CRC32C c = new CRC32C();
    c.update(bytes, 0, length);
    return (int) c.getValue();
  }
}
