package dev.cairn.fuzz;

import dev.cairn.fs.fake.InMemoryFile;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.cairn.CorruptionException;
import dev.cairn.fs.IoTag;
import dev.cairn.iter.InternalIterator;
import dev.cairn.key.InternalKey;
import dev.cairn.table.Footer;
import dev.cairn.table.TableProperties;
import dev.cairn.table.TableReader;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * Fuzzes the table reader end to end over an in-memory file: open (footer, index, filter and
 * properties), point lookups, a full scan, seeks, and checksum verification. Only {@link
 * CorruptionException} (including {@code UnsupportedTableVersionException}) may come out.
 *
 * <p>{@link #open} feeds the bytes as they are, so it mostly exercises the checksums and the
 * footer; {@link #openChecksumsRepaired} first makes every checksum it can find verify (see
 * {@link ChecksumRepair}), so that mutations reach the index, filter, properties and data block
 * decoders. {@link #footer} fuzzes {@link Footer#decode} alone, its CRC repaired, and {@link
 * #properties} the properties block's contents below their checksum.
 */
class TableFuzzTest {
  private static final int MAX_STEPS = 100_000;

  @FuzzTest
  void open(byte[] data) throws IOException {
    exercise(data);
  }

  @FuzzTest
  void openChecksumsRepaired(byte[] data) throws IOException {
    byte[] repaired = data.clone();
    ChecksumRepair.table(repaired);
    exercise(repaired);
  }

  @FuzzTest
  void footer(byte[] data) {
    byte[] raw = data.clone();
    if (raw.length == Footer.SIZE) {
      ChecksumRepair.table(raw); // a lone footer: its handles point nowhere, only the CRC is fixed
    }
    try {
      Footer f = Footer.decode(raw, "fuzz.cairn", 1 << 20);
      assertTrue(f.indexHandle().end() <= 1 << 20, "index handle past the footer");
    } catch (CorruptionException expected) {
      // Includes UnsupportedTableVersionException.
    }
  }

  @FuzzTest
  void properties(byte[] data) {
    try {
      TableProperties p = TableProperties.decode(ByteBuffer.wrap(data), "fuzz.cairn", 0);
      p.render();
      TableProperties again = TableProperties.decode(ByteBuffer.wrap(p.encode()), "reencoded", 0);
      assertEquals(p.render(), again.render(), "properties must survive re-encoding");
    } catch (CorruptionException expected) {
      // Damaged block, missing or malformed property.
    }
  }

  private static void exercise(byte[] bytes) throws IOException {
    long footerOffset = bytes.length - Footer.SIZE;
    TableReader reader;
    try {
      reader = TableReader.open(new InMemoryFile(bytes), "fuzz.cairn", 1, Math.max(0, footerOffset), null);
    } catch (CorruptionException expected) {
      return;
    }
    try (reader) {
      List<byte[]> keys = scan(reader);
      for (byte[] k : keys) {
        lookUp(reader, k);
        seek(reader, k);
      }
      lookUp(reader, InternalKey.seekKey("key004".getBytes(StandardCharsets.UTF_8), 1));
      seek(reader, InternalKey.seekKey(new byte[0], InternalKey.MAX_SEQUENCE));
      try {
        reader.verifyChecksums();
      } catch (CorruptionException expected) {
        // Damage in a data block or a mismatch with the properties.
      }
      reader.approximateOffsetOf(InternalKey.seekKey(new byte[] {'k'}, 0));
      reader.properties().render();
    }
  }

  /** Every key a full scan yields before any damage, checked to be in order. */
  private static List<byte[]> scan(TableReader reader) {
    List<byte[]> keys = new ArrayList<>();
    try (InternalIterator it = reader.iterator(false, IoTag.USER_READ)) {
      for (it.seekToFirst(); it.isValid() && keys.size() < MAX_STEPS; it.next()) {
        keys.add(it.key());
        it.value();
      }
    } catch (CorruptionException expected) {
      // Keep what was read before the damage.
    }
    return keys;
  }

  private static void lookUp(TableReader reader, byte[] internalKey) {
    try {
      reader.get(InternalKey.userKey(internalKey), InternalKey.sequence(internalKey), false);
    } catch (CorruptionException expected) {
      // Damage met by the lookup.
    }
  }

  private static void seek(TableReader reader, byte[] target) {
    try (InternalIterator it = reader.iterator(false, IoTag.USER_READ)) {
      it.seek(target);
      if (it.isValid()) {
        it.value(); // no order check: a damaged table's blocks need not match its index
      }
    } catch (CorruptionException expected) {
      // Damage met by the seek.
    }
  }
}
