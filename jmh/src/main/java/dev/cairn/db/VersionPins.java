package dev.cairn.db;

import dev.cairn.Cairn;
import dev.cairn.Options;
import dev.cairn.version.Version;
import dev.cairn.version.VersionSet;
import java.nio.file.Path;

/**
 * For {@code VersionPinBench}: the two ways a point read can hold the current version, on an open
 * engine's version set (package-private in the engine; this class shares its package on the
 * class path).
 */
public final class VersionPins implements AutoCloseable {
  private final DbImpl db;
  private final VersionSet versions;
  private final CachedVersions cached;

  public VersionPins(Path dir) {
    this.db = (DbImpl) Cairn.open(dir, Options.builder().build());
    this.versions = db.engine().versions();
    this.cached = db.engine().cachedVersions();
  }

  /** A reference of the read's own (every get before the cached versions); drop it with {@link #dropReferenced}. */
  public Version takeReferenced() {
    return versions.refCurrent();
  }

  public void dropReferenced(Version v) {
    v.unref();
  }

  /** The stripe's cached reference (every get now); put it back with {@link #putBack}. */
  public Version takeCached() {
    return cached.acquire();
  }

  public void putBack(Version v) {
    cached.release(v);
  }

  @Override
  public void close() {
    db.close();
  }
}
