package dev.cairn.db;

import dev.cairn.CairnException;
import dev.cairn.Options;
import dev.cairn.version.VersionEdit;
import java.nio.file.Path;

/**
 * Refuses to open a database whose values are stored otherwise than the options say: a database
 * created with a TTL stores a write time after every value, and read without one its values would
 * come back with four bytes too many; one created without stores none, and read with a TTL its
 * values would lose four bytes. Nothing is written before this check.
 */
final class ValueFormatCheck {
  private ValueFormatCheck() {}

  static void requireMatches(Path dir, Options options, int valueFormat) {
    boolean stamped = valueFormat == VersionEdit.VALUES_WITH_WRITE_TIME;
    if (stamped && options.ttl() == null) {
      throw new CairnException("database " + dir + " was created with a TTL and stores a write time with every"
          + " value: open it with Options.Builder.ttl(...)");
    }
    if (!stamped && options.ttl() != null) {
      throw new CairnException("database " + dir + " was created without a TTL and its values carry no write"
          + " time: open it without Options.Builder.ttl(...) (a TTL is chosen when a database is created)");
    }
  }
}
