package dev.cairn.table.codec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cairn.config.Compression;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class BlockCodecsTest {
  @Test
  void eachCodecHasItsPersistentTypeId() {
    assertNull(BlockCodecs.forWriting(Compression.none()));
    assertEquals(1, BlockCodecs.forWriting(Compression.lz4()).type());
    assertEquals(2, BlockCodecs.forWriting(Compression.zstd()).type());
    assertEquals("lz4", BlockCodecs.forType(1).name());
    assertEquals("zstd", BlockCodecs.forType(2).name());
    assertThrows(IllegalArgumentException.class, () -> BlockCodecs.forType(3));
  }

  /**
   * With the codecs' libraries off the class path (as for an application that added neither),
   * asking for a codec throws an error that names the codec and the library to add, every time.
   * The engine's classes are loaded again in a loader that sees only them.
   */
  @Test
  void aCodecWhoseLibraryIsMissingIsRefusedNamingTheLibrary() throws Exception {
    URL engineClasses = Path.of(BlockCodecs.class.getProtectionDomain().getCodeSource().getLocation().toURI()).toUri().toURL();
    try (URLClassLoader alone = new URLClassLoader(new URL[] {engineClasses}, ClassLoader.getPlatformClassLoader())) {
      Class<?> codecs = alone.loadClass(BlockCodecs.class.getName());
      Class<?> compression = alone.loadClass(Compression.class.getName());
      Method forWriting = codecs.getMethod("forWriting", compression);
      for (String[] expected : new String[][] {{"lz4", "LZ4", "at.yawk.lz4:lz4-java"},
          {"zstd", "ZSTD", "com.github.luben:zstd-jni"}}) {
        Object c = compression.getMethod("parse", String.class).invoke(null, expected[0]);
        for (int attempt = 0; attempt < 2; attempt++) {
          InvocationTargetException e = assertThrows(InvocationTargetException.class, () -> forWriting.invoke(null, c));
          String message = e.getCause().getMessage();
          assertEquals("CodecUnavailableException", e.getCause().getClass().getSimpleName(), message);
          assertTrue(message.startsWith(expected[1] + " block compression needs " + expected[2] + " on the class path"),
              message);
        }
      }
      Object none = compression.getMethod("none").invoke(null);
      assertNull(forWriting.invoke(null, none), "no codec, no library needed");
    }
  }
}
