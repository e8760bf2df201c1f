package dev.cairn.fs;

import java.nio.file.Path;

/**
 * Names of the files in a database directory. File numbers come from one counter in the
 * manifest and are never reused.
 *
 * <pre>
 *   LOCK                held while a process has the database open
 *   CURRENT             names the live manifest; replaced by atomic rename
 *   MANIFEST-000005     version edits (docs/manifest_format.md)
 *   000007.log          write-ahead log (docs/log_format.md)
 *   000008.sst          table (docs/format.md)
 *   000009.dbtmp        temporary file (the next CURRENT before its rename)
 * </pre>
 */
public final class FileNames {
  /** The manifest a new database starts with. */
  public static final long FIRST_MANIFEST_NUMBER = 1;

  public static final String LOCK = "LOCK";
  public static final String CURRENT = "CURRENT";

  private FileNames() {}

  public enum Kind {
    LOCK, CURRENT, MANIFEST, LOG, TABLE, TEMP, UNKNOWN
  }

  /** A parsed file name; {@code number} is -1 for LOCK, CURRENT and unknown names. */
  public record Parsed(Kind kind, long number) {}

  public static String log(long number) {
    return sixDigits(number) + ".log";
  }

  public static String table(long number) {
    return sixDigits(number) + ".sst";
  }

  public static String manifest(long number) {
    return "MANIFEST-" + sixDigits(number);
  }

  public static String temp(long number) {
    return sixDigits(number) + ".dbtmp";
  }

  /**
   * {@code number} zero-padded to at least six digits, as {@code %06d} prints it. Not through
   * String.format: opening a table names its file, and with more tables than the table cache
   * holds the format's parsing cost 7% of the read threads' samples (docs/results/issue17/profile-c;
   * docs/operations.md, "Open tables").
   */
  static String sixDigits(long number) {
    if (number < 0) {
      return String.format("%06d", number); // never a file number; kept as printf has it
    }
    String digits = Long.toString(number);
    return digits.length() >= 6 ? digits : "000000".substring(digits.length()) + digits;
  }

  public static Path tablePath(Path dir, long number) {
    return dir.resolve(table(number));
  }

  public static Parsed parse(String name) {
    if (name.equals(LOCK)) {
      return new Parsed(Kind.LOCK, -1);
    }
    if (name.equals(CURRENT)) {
      return new Parsed(Kind.CURRENT, -1);
    }
    if (name.startsWith("MANIFEST-")) {
      long n = parseNumber(name.substring("MANIFEST-".length()));
      return n < 0 ? new Parsed(Kind.UNKNOWN, -1) : new Parsed(Kind.MANIFEST, n);
    }
    int dot = name.indexOf('.');
    if (dot > 0) {
      long n = parseNumber(name.substring(0, dot));
      if (n >= 0) {
        switch (name.substring(dot + 1)) {
          case "log": return new Parsed(Kind.LOG, n);
          case "sst": return new Parsed(Kind.TABLE, n);
          case "dbtmp": return new Parsed(Kind.TEMP, n);
          default: break;
        }
      }
    }
    return new Parsed(Kind.UNKNOWN, -1);
  }

  private static long parseNumber(String digits) {
    if (digits.isEmpty() || digits.length() > 18) {
      return -1;
    }
    for (int i = 0; i < digits.length(); i++) {
      if (!Character.isDigit(digits.charAt(i))) {
        return -1;
      }
    }
    return Long.parseLong(digits);
  }
}
