package dev.cairn.fs.fake;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cairn.fs.IoTag;
import dev.cairn.fs.ReadableFile;
import dev.cairn.fs.WritableFile;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The fault filesystem's own semantics: what each fault does, and what a power loss leaves. */
class FaultInjectingFileSystemTest {
  @TempDir Path dir;
  private final FaultInjectingFileSystem fs = new FaultInjectingFileSystem();

  @Test
  void powerLossKeepsOnlySyncedBytes() throws IOException {
    Path f = dir.resolve("a");
    WritableFile out = fs.create(f, IoTag.OTHER);
    out.append(bytes("synced"));
    out.sync();
    fs.syncDirectory(dir);
    out.append(bytes("-lost"));
    out.flush();
    assertEquals("synced-lost", read(f));
    fs.simulatePowerLoss();
    out.close(); // the dead handle's buffered bytes must not come back either
    assertEquals("synced", read(f));
    assertEquals(1, fs.faultsInjected(FaultInjectingFileSystem.Fault.POWER_LOSS));
  }

  @Test
  void aCreationNotFollowedByADirectorySyncIsLost() throws IOException {
    Path f = dir.resolve("new");
    try (WritableFile out = fs.create(f, IoTag.OTHER)) {
      out.append(bytes("data"));
      out.sync();
    }
    fs.simulatePowerLoss();
    assertFalse(fs.exists(f), "the file's directory entry never reached the device");
  }

  @Test
  void anUndurableRenameIsUndoneAndTheOldTargetComesBack() throws IOException {
    write("CURRENT", "old");
    fs.syncDirectory(dir);
    write("tmp", "new");
    fs.rename(dir.resolve("tmp"), dir.resolve("CURRENT"));
    assertEquals("new", read(dir.resolve("CURRENT")));
    fs.simulatePowerLoss();
    assertEquals("old", read(dir.resolve("CURRENT")));
    assertFalse(fs.exists(dir.resolve("tmp")), "the temporary file was never durable either");
  }

  @Test
  void aRenameFollowedByADirectorySyncSurvives() throws IOException {
    write("CURRENT", "old");
    fs.syncDirectory(dir);
    write("tmp", "new");
    fs.rename(dir.resolve("tmp"), dir.resolve("CURRENT"));
    fs.syncDirectory(dir);
    fs.simulatePowerLoss();
    assertEquals("new", read(dir.resolve("CURRENT")));
    assertFalse(fs.exists(dir.resolve("tmp")));
  }

  @Test
  void anUndurableDeletionIsUndone() throws IOException {
    write("table", "rows");
    fs.syncDirectory(dir);
    fs.delete(dir.resolve("table"));
    fs.simulatePowerLoss();
    assertEquals("rows", read(dir.resolve("table")));
  }

  @Test
  void thePowerStaysOffUntilPoweredOn() throws IOException {
    WritableFile old = fs.create(dir.resolve("x"), IoTag.OTHER);
    fs.simulatePowerLoss();
    assertThrows(IOException.class, () -> fs.create(dir.resolve("y"), IoTag.OTHER));
    fs.powerOn();
    assertThrows(IOException.class, () -> old.append(bytes("late")), "a handle from before stays dead");
    old.close();
    write("y", "fine");
    assertEquals("fine", read(dir.resolve("y")));
  }

  @Test
  void outOfSpaceWritesWhatFitsAndSaysSo() throws IOException {
    fs.limitSpace(4);
    Path f = dir.resolve("full");
    WritableFile out = fs.create(f, IoTag.OTHER);
    IOException e = assertThrows(IOException.class, () -> out.append(bytes("abcdef")));
    assertTrue(e.getMessage().contains("No space left on device"), e.getMessage());
    out.close();
    assertEquals("abcd", read(f));
    assertEquals(1, fs.faultsInjected(FaultInjectingFileSystem.Fault.NO_SPACE));
  }

  @Test
  void aTornWriteLeavesHalfOfTheAppend() throws IOException {
    fs.tearNextAppend(name -> name.equals("torn"));
    Path f = dir.resolve("torn");
    WritableFile out = fs.create(f, IoTag.OTHER);
    assertThrows(IOException.class, () -> out.append(bytes("12345678")));
    out.append(bytes("!")); // only the next append tears
    out.close();
    assertEquals("1234!", read(f));
    assertEquals(1, fs.faultsInjected(FaultInjectingFileSystem.Fault.TORN_WRITE));
  }

  private void write(String name, String content) throws IOException {
    try (WritableFile out = fs.create(dir.resolve(name), IoTag.OTHER)) {
      out.append(bytes(content));
      out.sync();
    }
  }

  private String read(Path f) throws IOException {
    try (ReadableFile in = fs.openReadable(f)) {
      return new String(in.readFully(0, (int) in.size(), IoTag.OTHER), StandardCharsets.UTF_8);
    }
  }

  private static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }
}
