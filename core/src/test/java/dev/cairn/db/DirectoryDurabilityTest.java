package dev.cairn.db;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cairn.Cairn;
import dev.cairn.Options;
import dev.cairn.fs.ForwardingFileSystem;
import dev.cairn.fs.IoTag;
import dev.cairn.fs.WritableFile;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A database's directory is made durable in its parent before the database writes into it. */
class DirectoryDurabilityTest {
  @TempDir Path parent;

  private final List<String> calls = new CopyOnWriteArrayList<>();

  @Test
  void aNewDatabaseDirectoryIsSyncedIntoItsParentBeforeItsFirstManifest() {
    assertSyncedIntoParentBeforeItsFirstManifest(parent.resolve("db"));
  }

  @Test
  void aDirectoryMadeBeforeTheCreationIsSyncedIntoItsParentToo() throws IOException {
    assertSyncedIntoParentBeforeItsFirstManifest(Files.createDirectory(parent.resolve("made-by-a-user")));
  }

  private void assertSyncedIntoParentBeforeItsFirstManifest(Path dir) {
    try (Cairn db = Cairn.open(dir, Options.builder().fileSystem(recording()).build())) {
      db.put(new byte[] {1}, new byte[] {2});
    }
    int parentSync = calls.indexOf("sync " + parent.getFileName());
    int firstManifest = calls.indexOf("create MANIFEST-000001");
    assertTrue(parentSync >= 0 && parentSync < firstManifest, "calls: " + calls);
  }

  private ForwardingFileSystem recording() {
    return new ForwardingFileSystem() {
      @Override
      public void syncDirectory(Path dir) throws IOException {
        calls.add("sync " + dir.getFileName());
        super.syncDirectory(dir);
      }

      @Override
      public WritableFile create(Path path, IoTag tag) throws IOException {
        calls.add("create " + path.getFileName());
        return super.create(path, tag);
      }
    };
  }
}
