package dev.cairn.bench.micro;

import dev.cairn.Cairn;
import dev.cairn.Options;
import dev.cairn.db.base.CachedVersions;
import dev.cairn.version.Version;
import dev.cairn.version.VersionSet;
import java.io.IOException;
import java.nio.file.Path;

/**
 * For {@code VersionPinBench}: the two ways a point read can hold the current version, on the
 * version set of a database made and closed in {@code dir} (nothing installs while it is pinned,
 * as in an idle database).
 */
public final class VersionPins implements AutoCloseable {
  private final VersionSet versions;
  private final CachedVersions cached;

  public VersionPins(Path dir) throws IOException {
    Options options = Options.defaults();
    Cairn.open(dir, options).close();
    this.versions = new VersionSet(dir, options.fileSystem(), options);
    // recover() asks for the engine mutex; no other thread sees this version set.
    versions.recover();
    this.cached = new CachedVersions(versions);
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
  public void close() throws IOException {
    cached.close();
    versions.close();
  }
}
