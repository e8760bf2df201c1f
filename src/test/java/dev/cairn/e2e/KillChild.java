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

  public static void main(String[] args) {
    Path dir = Path.of(args[0]);
    long start = Long.parseLong(args[1]);
    PrintStream out = new PrintStream(System.out, true);
    Options options = Options.builder()
        .memtableBytes(64 << 10)
        .targetFileBytes(32 << 10)
        .baseLevelBytes(128 << 10)
        .l0CompactionTrigger(2)
        .build();
    Cairn db = Cairn.open(dir, options);
    out.println("open");
    for (long i = start; ; i++) {
      db.put(KillTest.key(i), KillTest.value(i), WriteOptions.SYNC);
      out.println(i);
      for (int j = 0; j < 5; j++) {
        db.put(KillTest.fillerKey(i, j), KillTest.value(i * 10 + j), WriteOptions.NO_SYNC);
      }
    }
  }
}
