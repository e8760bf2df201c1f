package dev.cairn.fs.fake;

import dev.cairn.fs.FileSystem;
import dev.cairn.fs.IoTag;
import dev.cairn.fs.ReadableFile;
import dev.cairn.fs.WritableFile;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * What a power loss would leave of the files written through a {@link FaultInjectingFileSystem}:
 * the model behind its crash-simulating mode (after LevelDB's FaultInjectionTestEnv and Pebble's
 * crashable MemFS).
 *
 * <p>Two namespaces map paths to {@link Inode}s: the <em>live</em> one (what the running process
 * sees) and the <em>durable</em> one (what survives power loss). Creations, renames and deletions
 * change only the live namespace; {@link #directorySynced} copies a directory's live entries into
 * the durable one. Each inode remembers how many of its bytes were synced; only those survive.
 * When an inode that the durable namespace still names loses its last live path (deleted, or
 * replaced by a rename), its synced bytes are saved, because power loss will bring it back.
 *
 * <p>A file the tracker has never seen (written before it existed, or by someone else) is taken
 * as durable in full the first time an operation touches its path. Files never touched are left
 * alone by {@link #applyPowerLoss}.
 *
 * <p>Not thread-safe: the file system calls it under its own lock.
 */
final class DurabilityTracker {
  /** One file's identity across renames. */
  static final class Inode {
    long syncedLength;
    /** The synced bytes, kept once the inode has no live path but is still durable. */
    byte[] saved;

    Inode(long syncedLength) {
      this.syncedLength = syncedLength;
    }
  }

  private final FileSystem real;
  private final Map<Path, Inode> live = new HashMap<>();
  private final Map<Path, Inode> durable = new HashMap<>();

  DurabilityTracker(FileSystem real) {
    this.real = real;
  }

  /** A file was created (or truncated by creation) at {@code path}; returns its new inode. */
  Inode created(Path path) throws IOException {
    unlinkLive(path);
    Inode inode = new Inode(0);
    live.put(path, inode);
    return inode;
  }

  /** An existing file was reopened for appending after truncation to {@code length}. */
  Inode reopened(Path path, long length) throws IOException {
    Inode inode = adopt(path);
    inode.syncedLength = Math.min(inode.syncedLength, length);
    return inode;
  }

  void synced(Inode inode, long length) {
    inode.syncedLength = Math.max(inode.syncedLength, length);
  }

  /** Requires: called before the real delete, so that durable bytes can still be saved. */
  void deleting(Path path) throws IOException {
    if (real.exists(path)) {
      adopt(path);
      unlinkLive(path);
    }
  }

  /** Requires: called before the real rename. */
  void renaming(Path source, Path target) throws IOException {
    Inode moved = adopt(source);
    unlinkLive(target);
    live.remove(source);
    live.put(target, moved);
  }

  /** Creations, renames and deletions in {@code dir} are now durable. */
  void directorySynced(Path dir) {
    durable.keySet().removeIf(p -> dir.equals(p.getParent()));
    live.forEach((p, inode) -> {
      if (dir.equals(p.getParent())) {
        durable.put(p, inode);
      }
    });
  }

  /**
   * Rewrites the real files to what would survive a power loss now: every durable path holds
   * its inode's synced bytes (a file still at its path, also a prefix of its unsynced bytes as
   * long as {@code unsyncedKept} draws, when not null), and every path the durable namespace
   * does not name is deleted. Returns the number of files changed. The live namespace becomes
   * the durable one.
   */
  int applyPowerLoss(Random unsyncedKept) throws IOException {
    // Read every moved or deleted durable inode's bytes before changing any file.
    Map<Path, byte[]> rewrite = new HashMap<>();
    List<Path> truncate = new ArrayList<>();
    for (Map.Entry<Path, Inode> e : durable.entrySet()) {
      Inode inode = e.getValue();
      if (live.get(e.getKey()) == inode) {
        truncate.add(e.getKey());
      } else {
        rewrite.put(e.getKey(), bytesOf(inode));
      }
    }
    int changed = 0;
    for (Path p : new ArrayList<>(live.keySet())) {
      if (durable.get(p) != live.get(p) && real.exists(p)) {
        real.delete(p);
        changed++;
      }
    }
    for (Path p : truncate) {
      long synced = durable.get(p).syncedLength;
      long size = real.size(p);
      long kept = unsyncedKept == null || size <= synced ? synced : synced + unsyncedKept.nextLong(size - synced + 1);
      if (size != kept) {
        real.openForAppend(p, kept, IoTag.OTHER).close();
        changed++;
      }
      durable.get(p).syncedLength = kept; // on the device now, whatever the next power loss does
    }
    for (Map.Entry<Path, byte[]> e : rewrite.entrySet()) {
      try (WritableFile out = real.create(e.getKey(), IoTag.OTHER)) {
        out.append(e.getValue());
        out.sync();
      }
      changed++;
    }
    live.clear();
    live.putAll(durable);
    live.values().forEach(i -> i.saved = null);
    return changed;
  }

  /** The inode at {@code path}, registering a file never seen before as durable in full. */
  private Inode adopt(Path path) throws IOException {
    Inode inode = live.get(path);
    if (inode == null) {
      inode = new Inode(real.exists(path) ? real.size(path) : 0);
      live.put(path, inode);
      if (real.exists(path)) {
        durable.put(path, inode);
      }
    }
    return inode;
  }

  /** {@code path} stops naming its inode; keep the inode's bytes if power loss would revive it. */
  private void unlinkLive(Path path) throws IOException {
    Inode old = live.remove(path);
    if (old == null && real.exists(path)) {
      old = new Inode(real.size(path));
      durable.putIfAbsent(path, old);
      old = durable.get(path);
    }
    if (old != null && durable.containsValue(old) && !live.containsValue(old)) {
      old.saved = readPrefix(path, old.syncedLength);
    }
  }

  private byte[] bytesOf(Inode inode) throws IOException {
    if (inode.saved != null) {
      return inode.saved;
    }
    for (Map.Entry<Path, Inode> e : live.entrySet()) {
      if (e.getValue() == inode) {
        return readPrefix(e.getKey(), inode.syncedLength);
      }
    }
    throw new AssertionError("durable inode has neither a live path nor saved bytes");
  }

  private byte[] readPrefix(Path path, long length) throws IOException {
    try (ReadableFile in = real.openReadable(path)) {
      int n = (int) Math.min(length, in.size());
      byte[] out = new byte[n];
      in.read(0, ByteBuffer.wrap(out), IoTag.OTHER);
      return out;
    }
  }
}
