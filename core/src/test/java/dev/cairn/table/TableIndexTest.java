package dev.cairn.table;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cairn.CorruptionException;
import dev.cairn.key.InternalKey;
import dev.cairn.key.InternalKeyComparator;
import dev.cairn.key.ValueType;
import dev.cairn.table.block.Block;
import dev.cairn.table.block.BlockBuilder;
import dev.cairn.table.block.BlockHandle;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * {@link TableIndex#seek} (a search on each separator's 8 bytes past the shared prefix, then whole
 * keys among ties) against a walk over whole keys, for key shapes that stress the
 * prefix: long shared prefixes, keys shorter than the 8 bytes, zero bytes that tie with the
 * padding, one user key in many versions, and targets inside, between, before and after them.
 */
class TableIndexTest {
  private static final InternalKeyComparator CMP = InternalKeyComparator.INSTANCE;

  @Test
  void seekAgreesWithAWholeKeySearchForEveryKeyShape() {
    Random rnd = new Random(5);
    List<Function<Random, byte[]>> shapes = List.of(
        r -> randomBytes(r, 1 + r.nextInt(24), 256),               // arbitrary binary keys
        r -> randomBytes(r, 1 + r.nextInt(4), 3),                   // short, few distinct bytes, zeros
        r -> concat(ascii("tenant-0042/row/"), randomBytes(r, r.nextInt(12), 4)), // long shared prefix
        r -> ascii(String.format("%016d", r.nextInt(1_000_000))),    // the runner's keys
        r -> concat(ascii("k"), new byte[r.nextInt(10)]));           // zero padding ties
    for (int shape = 0; shape < shapes.size(); shape++) {
      for (int round = 0; round < 40; round++) {
        Function<Random, byte[]> keys = shapes.get(shape);
        byte[][] separators = separators(rnd, keys, 1 + rnd.nextInt(300));
        TableIndex index = TableIndex.of(separators, handles(separators.length));
        for (int t = 0; t < 300; t++) {
          byte[] target = target(rnd, keys, separators);
          assertEquals(wholeKeySeek(separators, target), index.seek(target),
              "shape " + shape + ", round " + round + ", target " + InternalKey.describe(target));
        }
      }
    }
  }

  @Test
  void blocksAreFoundInFileOrderWhereverAnAppendPutThem() {
    Random rnd = new Random(9);
    for (int round = 0; round < 50; round++) {
      int n = 1 + rnd.nextInt(200);
      byte[][] separators = separators(rnd, r -> randomBytes(r, 1 + r.nextInt(24), 256), n);
      // Blocks 100 bytes apart in the file, in index order for some rounds, shuffled in the rest.
      List<Integer> slots = new ArrayList<>(IntStream.range(0, n).boxed().toList());
      if (round % 3 != 0) {
        Collections.shuffle(slots, rnd);
      }
      BlockHandle[] handles = new BlockHandle[n];
      for (int i = 0; i < n; i++) {
        handles[i] = new BlockHandle(slots.get(i) * 100L, 95);
      }
      TableIndex index = TableIndex.of(separators, handles);
      for (int k = 0; k < n; k++) {
        assertEquals(k * 100L, index.handle(index.byFileOffset(k)).offset(), "round " + round + ", rank " + k);
      }
      for (long offset = -1; offset <= n * 100L + 1; offset += 1 + rnd.nextInt(60)) {
        long at = offset;
        long before = Arrays.stream(handles).filter(h -> h.offset() < at).count();
        assertEquals(before, index.blocksStartingBefore(offset), "round " + round + ", offset " + offset);
      }
    }
  }

  @Test
  void anIndexWhoseEntriesShareBlockBytesIsCorruptionNamingTheFileAndTheIndex() {
    byte[][] separators =
        Arrays.copyOf(separators(new Random(3), r -> randomBytes(r, 1 + r.nextInt(24), 256), 3), 3);
    // Disjoint in index order and shuffled (as after an append) decode; the same block named
    // twice, or a block starting inside another, in either order, is refused.
    assertEquals(3, decode(separators, new BlockHandle(0, 95), new BlockHandle(100, 95), new BlockHandle(200, 95))
        .size());
    assertEquals(3, decode(separators, new BlockHandle(200, 95), new BlockHandle(0, 95), new BlockHandle(100, 95))
        .size());
    for (BlockHandle[] bad : new BlockHandle[][] {
        {new BlockHandle(0, 95), new BlockHandle(100, 95), new BlockHandle(100, 95)},
        {new BlockHandle(0, 95), new BlockHandle(50, 95), new BlockHandle(200, 95)},
        {new BlockHandle(200, 95), new BlockHandle(0, 95), new BlockHandle(240, 10)}}) {
      CorruptionException e = assertThrows(CorruptionException.class, () -> decode(separators, bad),
          Arrays.toString(bad));
      assertEquals("000007.sst", e.file());
      assertEquals(4000, e.offset(), "named at the index block");
      assertTrue(e.getMessage().contains("overlapping data blocks"), e.getMessage());
    }
  }

  /** Encodes an index block of {@code separators} and {@code handles} and decodes it. */
  private static TableIndex decode(byte[][] separators, BlockHandle... handles) {
    BlockBuilder block = new BlockBuilder(1, CMP, 1024);
    for (int i = 0; i < separators.length; i++) {
      block.add(separators[i], handles[i].encode());
    }
    return TableIndex.decode(new Block(ByteBuffer.wrap(block.finish()), "000007.sst", 4000), 5000);
  }

  @Test
  void anEmptyIndexSendsEveryTargetToItsEnd() {
    TableIndex index = TableIndex.of(new byte[0][], new BlockHandle[0]);
    assertEquals(0, index.seek(InternalKey.seekKey(ascii("a"), 5)));
  }

  /** Strictly increasing internal keys; some user keys in several versions. */
  private static byte[][] separators(Random rnd, Function<Random, byte[]> keys, int n) {
    TreeSet<byte[]> set = new TreeSet<>(CMP);
    while (set.size() < n) {
      byte[] user = keys.apply(rnd);
      int versions = rnd.nextInt(8) == 0 ? 1 + rnd.nextInt(5) : 1;
      for (int v = 0; v < versions; v++) {
        set.add(InternalKey.encode(user, 1 + rnd.nextInt(1000), ValueType.VALUE));
      }
    }
    return set.toArray(new byte[0][]);
  }

  private static byte[] target(Random rnd, Function<Random, byte[]> keys, byte[][] separators) {
    switch (rnd.nextInt(4)) {
      case 0: { // a separator's user key at another sequence
        byte[] s = separators[rnd.nextInt(separators.length)];
        return InternalKey.seekKey(InternalKey.userKey(s), rnd.nextInt(1200));
      }
      case 1: { // a separator's user key cut short or extended
        byte[] user = InternalKey.userKey(separators[rnd.nextInt(separators.length)]);
        byte[] changed = rnd.nextBoolean() && user.length > 0
            ? Arrays.copyOf(user, rnd.nextInt(user.length))
            : concat(user, randomBytes(rnd, 1 + rnd.nextInt(3), 3));
        return InternalKey.seekKey(changed, rnd.nextInt(1200));
      }
      case 2: // an exact separator
        return separators[rnd.nextInt(separators.length)].clone();
      default: // anything of the shape, or anything at all
        byte[] user = rnd.nextBoolean() ? keys.apply(rnd) : randomBytes(rnd, rnd.nextInt(20), 256);
        return InternalKey.seekKey(user, rnd.nextInt(1200));
    }
  }

  /** The reference: the first separator at or above the target, found by walking them all. */
  private static int wholeKeySeek(byte[][] separators, byte[] target) {
    int i = 0;
    while (i < separators.length && CMP.compare(separators[i], target) < 0) {
      i++;
    }
    return i;
  }

  private static BlockHandle[] handles(int n) {
    BlockHandle[] out = new BlockHandle[n];
    for (int i = 0; i < n; i++) {
      out[i] = new BlockHandle(i * 100L, 95);
    }
    return out;
  }

  private static byte[] randomBytes(Random rnd, int n, int distinct) {
    byte[] b = new byte[n];
    for (int i = 0; i < n; i++) {
      b[i] = (byte) rnd.nextInt(distinct);
    }
    return b;
  }

  private static byte[] ascii(String s) {
    return s.getBytes(StandardCharsets.US_ASCII);
  }

  private static byte[] concat(byte[] a, byte[] b) {
    byte[] out = Arrays.copyOf(a, a.length + b.length);
    System.arraycopy(b, 0, out, a.length, b.length);
    return out;
  }
}
