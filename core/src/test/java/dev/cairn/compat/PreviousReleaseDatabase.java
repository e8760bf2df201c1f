package dev.cairn.compat;

import dev.cairn.Cairn;
import dev.cairn.Options;
import dev.cairn.WriteOptions;
import dev.cairn.config.CompactionSettings;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

/**
 * Writes the databases {@code PreviousReleaseTest} opens, through the public API only, so that the
 * same program runs against any release: {@code core/src/test/resources/dev/cairn/compat/} holds
 * them as the release before block compression wrote them (commit {@code f1c99afc}, format version
 * 1 tables), made with
 *
 * <pre>
 *   javac -cp OLD_JARS -d /tmp/gen core/src/test/java/dev/cairn/compat/PreviousReleaseDatabase.java
 *   java -cp /tmp/gen:OLD_JARS dev.cairn.compat.PreviousReleaseDatabase core/src/test/resources/dev/cairn/compat
 * </pre>
 *
 * where OLD_JARS are that release's cairn-core, -fs, -cache, -compaction and -model jars and their
 * Netty and Caffeine. Each database: {@link #KEYS} keys written in three rounds (each a new value;
 * every seventh key deleted in the second), small tables so that they reach several levels, the
 * last round left in the write-ahead log (not flushed).
 */
public final class PreviousReleaseDatabase {
  public static final int KEYS = 1500;
  /** The styles written, each a directory of that name: the default (the buffer) and block compaction. */
  public static final String[] STYLES = {"buffer", "block"};

  private PreviousReleaseDatabase() {}

  public static byte[] key(int i) {
    return String.format("key%05d", i).getBytes(StandardCharsets.UTF_8);
  }

  public static byte[] value(int i, int round) {
    return ("v" + i + "r" + round + "-").repeat(3).getBytes(StandardCharsets.UTF_8);
  }

  /** What the database holds for key {@code i} after the three rounds: null if deleted. */
  public static byte[] expected(int i) {
    if (i % 3 == 0) {
      return value(i, 2); // the third round rewrote every third key, in the log only
    }
    return i % 7 == 0 ? null : value(i, 1);
  }

  /** The small tree both styles are written with. */
  public static Options options(String style) {
    Options.Builder b = Options.builder()
        .memtableBytes(64 << 10)
        .blockBytes(512)
        .targetFileBytes(16 << 10)
        .baseLevelBytes(64 << 10)
        .l0CompactionTrigger(2);
    if (style.equals("block")) {
      b.compaction(CompactionSettings.leveled(CompactionSettings.Block.defaults()));
    }
    return b.build();
  }

  public static void main(String[] args) {
    Path root = Path.of(args[0]);
    for (String style : STYLES) {
      try (Cairn db = Cairn.open(root.resolve(style), options(style))) {
        for (int i = 0; i < KEYS; i++) {
          db.put(key(i), value(i, 0));
        }
        for (int i = 0; i < KEYS; i++) {
          if (i % 7 == 0) {
            db.delete(key(i));
          } else {
            db.put(key(i), value(i, 1));
          }
        }
        db.flush();
        db.compactRange(null, null);
        for (int i = 0; i < KEYS; i += 3) {
          db.put(key(i), value(i, 2), WriteOptions.SYNC);
        }
      }
    }
  }
}
