package dev.cairn.db;

import dev.cairn.Cairn;
import dev.cairn.Options;
import java.nio.file.Path;

/** The engine. Being assembled; see issue 2. */
public final class DbImpl {
  private DbImpl() {}

  public static Cairn open(Path dir, Options options) {
    throw new UnsupportedOperationException("engine not assembled yet");
  }
}
