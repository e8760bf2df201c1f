package dev.cairn.e2e;

import dev.cairn.Cairn;
import dev.cairn.Options;
import dev.cairn.WriteOptions;
import java.io.PrintStream;
import java.nio.file.Path;

/**
 * The child process of {@link KillTest}: writes keys {@code start, start+1, ...} with synced puts
 * (plus unsynced filler to keep flushes and compactions busy) and prints each synced key's number
 * after the put returned, i.e. once it is acknowledged. It runs until it is killed.
 */
public final class KillChild {
  private KillChild() {}

  /** What a kill-test child does around step {@code i}'s synced put. */
  interface Step {
    void run(Cairn db, long i);
  }

  /** A step that does nothing. */
  static final Step NOTHING = (db, i) -> {};

  /**
   * The loop every kill-test child runs until it is killed: opens the database at {@code args[0]},
   * prints "open", then for {@code i = args[1], args[1]+1, ...} runs {@code before}, puts key
   * {@code i} synced, prints {@code i} (acknowledged), and runs {@code after}.
   */
  static void run(String[] args, Options options, Step before, Step after) {
    Path dir = Path.of(args[0]);
    long start = Long.parseLong(args[1]);
    PrintStream out = new PrintStream(System.out, true);
    Cairn db = Cairn.open(dir, options);
    out.println("open");
    for (long i = start; ; i++) {
      before.run(db, i);
      db.put(KillTest.key(i), KillTest.value(i), WriteOptions.SYNC);
      out.println(i);
      after.run(db, i);
    }
  }

  /** Unsynced filler puts {@code (fillerSlot, 0..count)} that keep flushes and compactions busy. */
  static void filler(Cairn db, long i, long fillerSlot, int count) {
    for (int j = 0; j < count; j++) {
      db.put(KillTest.fillerKey(fillerSlot, j), KillTest.value(i * 10 + j), WriteOptions.NO_SYNC);
    }
  }

  public static void main(String[] args) {
    Options options = Options.builder()
        .memtableBytes(64 << 10)
        .targetFileBytes(32 << 10)
        .baseLevelBytes(128 << 10)
        .l0CompactionTrigger(2)
        .build();
    run(args, options, NOTHING, (db, i) -> filler(db, i, i, 5));
  }
}
