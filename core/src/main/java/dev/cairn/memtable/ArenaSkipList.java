package dev.cairn.memtable;

import dev.cairn.key.InternalKey;
import dev.cairn.key.InternalKeyComparator;
import dev.cairn.util.Coding;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.Arrays;

/**
 * The memtable's ordered index: LevelDB's skiplist (one writer, any number of lock-free readers,
 * nothing ever removed) with its nodes packed into large byte arrays, each node's internal key
 * right behind its tower of next pointers. A search touches one place in memory per node it
 * visits, where {@code ConcurrentSkipListMap} touches an index object, a node object and a key
 * array; and the nodes of a memtable with large values sit together, the values apart (in the
 * value arena), so the nodes of a 32 MiB memtable of 1 KiB values fit in a megabyte or two.
 * Measured: docs/results/issue20 {@code memtable-jmh/}.
 *
 * <p><b>Values</b> are copied into a second arena of large byte arrays, not kept as one array
 * each: a memtable lives through several young collections, and as objects of their own its
 * values would be copied by each into the survivor spaces and then into the old generation, to
 * die there at the flush (docs/decisions/0031). A few large arrays are copied rarely, if at all:
 * G1 allocates an array of half a region or more straight into the old generation, and can
 * reclaim it at a young collection once it is unreachable. Value chunks start at {@link
 * #FIRST_VALUE_CHUNK_BYTES} and each next one doubles, up to {@link #VALUE_CHUNK_BYTES}, so a
 * small memtable stays small; a value longer than a quarter of that gets a chunk of its own.
 *
 * <p><b>Node format</b>, at a 4-aligned address {@code a} (chunk {@code a >>> CHUNK_SHIFT}, byte
 * offset {@code a & OFFSET_MASK} in it), native byte order:
 *
 * <pre>
 *   a + 0            int   keyLength    the internal key's length (user key + 8-byte trailer)
 *   a + 4            int   height       1..MAX_HEIGHT
 *   a + 8            int   valueChunk   the value's chunk in the value arena, -1 for an empty value
 *   a + 12           int   valueOffset  where the value starts in that chunk
 *   a + 16           int   valueLength
 *   a + 20 + 4 i     int   next[i]      the next node's address at level i, 0 for none
 *   a + 20 + 4 h     byte  key[keyLength]
 * </pre>
 *
 * Address 0 is "none", so the first chunk starts allocating at 4; the head node (height {@link
 * #MAX_HEIGHT}, no key) is the first node.
 *
 * <p><b>Publication.</b> The writer fills a node (header, key, its own next pointers) and copies
 * its value into the value arena with plain stores, then links it bottom-up, each link with a
 * release store; readers load links with acquire. A reader that reaches a node therefore sees
 * everything written before its link, including its value's bytes and the chunk array slots
 * both live in, which are written once and never change. (The acquire is a plain load followed
 * by an acquire fence.) The node's upper links may be missing for a moment: a reader then
 * reaches it through a lower level, never skips it.
 *
 * <p><b>Thread-safety</b>: {@link #insert} must not run concurrently with itself (the caller
 * serializes writers); everything else may run concurrently with anything.
 */
final class ArenaSkipList {
  static final int MAX_HEIGHT = 12;
  /** LevelDB's branching: each level holds about a quarter of the one below. */
  private static final int BRANCHING = 4;

  private static final int CHUNK_SHIFT = 20;
  /** Ordinary chunks are 1 MiB; a node larger than a quarter of that gets a chunk of its own. */
  private static final int CHUNK_BYTES = 1 << CHUNK_SHIFT;
  private static final int OFFSET_MASK = CHUNK_BYTES - 1;
  /** Addresses are ints: 2,047 chunks of 1 MiB (an address's sign bit stays clear). */
  private static final int MAX_CHUNKS = (1 << (31 - CHUNK_SHIFT)) - 1;

  /**
   * What a value chunk leaves of its power of two for the array's header: G1 gives an array of
   * half a region or more regions of its own, and a 4 MiB array and its 16-byte header would
   * take two 4 MiB regions, or three of 2 MiB.
   */
  private static final int ARRAY_HEADER_ROOM = 64;
  /** The first value chunk's size; each next one doubles, up to {@link #VALUE_CHUNK_BYTES}. */
  static final int FIRST_VALUE_CHUNK_BYTES = (64 << 10) - ARRAY_HEADER_ROOM;
  /** The largest shared value chunk; a value longer than a quarter of it gets a chunk of its own. */
  static final int VALUE_CHUNK_BYTES = (4 << 20) - ARRAY_HEADER_ROOM;
  /**
   * Value chunks a memtable may hold: within {@link MemTable#MAX_BYTES} of values, shared chunks
   * past the first doublings are more than three quarters full (a value that does not fit the
   * rest of one is at most 1 MiB) and dedicated ones hold more than 1 MiB each: fewer than 2,400.
   */
  private static final int MAX_VALUE_CHUNKS = 4096;
  private static final int NO_VALUE_CHUNK = -1;
  private static final byte[] EMPTY = new byte[0];

  private static final int KEY_LENGTH = 0;
  private static final int HEIGHT = 4;
  private static final int VALUE_CHUNK = 8;
  private static final int VALUE_OFFSET = 12;
  private static final int VALUE_LENGTH = 16;
  private static final int TOWER = 20;
  private static final int NONE = 0;

  private static final VarHandle INT =
      MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.nativeOrder());

  /** Slots are written once, before any node in them is linked; the array itself never grows. */
  private final byte[][] chunks = new byte[MAX_CHUNKS + 1][];
  private final byte[][] valueChunks = new byte[MAX_VALUE_CHUNKS][];
  private final int head;
  /** The tallest tower so far; readers may see a stale, lower value and start lower (still correct). */
  private volatile int height = 1;

  // Writer-only state.
  private int chunkCount;
  private int allocChunk;
  private int allocOffset;
  private int valueChunkCount;
  /** The shared value chunk values go into, {@link #NO_VALUE_CHUNK} before the first. */
  private int valueAllocChunk = NO_VALUE_CHUNK;
  private int valueAllocOffset;
  private long random = 0x9E3779B97F4A7C15L;
  private final int[] prev = new int[MAX_HEIGHT];

  ArenaSkipList() {
    chunks[0] = new byte[CHUNK_BYTES];
    chunkCount = 1;
    allocOffset = 4; // address 0 is NONE
    head = allocate(nodeBytes(MAX_HEIGHT, 0));
    setInt(head, HEIGHT, MAX_HEIGHT);
  }

  /**
   * Inserts {@code internalKey} and {@code value}, both copied into the arena.
   * Requires: the key is not present; no other insert runs concurrently.
   */
  void insert(byte[] internalKey, byte[] value) {
    int x = head;
    for (int level = height - 1; level >= 0; level--) {
      for (int next = plainNext(x, level); next != NONE && compare(next, internalKey) < 0;
          next = plainNext(x, level)) {
        x = next;
      }
      prev[level] = x;
    }
    int h = randomHeight();
    int current = height;
    for (int level = current; level < h; level++) {
      prev[level] = head;
    }
    long valueAt = storeValue(value);
    int node = allocate(nodeBytes(h, internalKey.length));
    byte[] chunk = chunk(node);
    int at = node & OFFSET_MASK;
    INT.set(chunk, at + KEY_LENGTH, internalKey.length);
    INT.set(chunk, at + HEIGHT, h);
    INT.set(chunk, at + VALUE_CHUNK, (int) (valueAt >>> 32));
    INT.set(chunk, at + VALUE_OFFSET, (int) valueAt);
    INT.set(chunk, at + VALUE_LENGTH, value.length);
    System.arraycopy(internalKey, 0, chunk, at + TOWER + 4 * h, internalKey.length);
    for (int level = 0; level < h; level++) {
      INT.set(chunk, at + TOWER + 4 * level, plainNext(prev[level], level));
    }
    for (int level = 0; level < h; level++) {
      publishNext(prev[level], level, node);
    }
    if (h > current) {
      height = h; // after the links: a reader starting at the new height finds them
    }
  }

  /** The first node whose key is >= {@code internalKey}, or {@link #NONE}. */
  int seek(byte[] internalKey) {
    return (int) search(internalKey);
  }

  /**
   * The last node whose key is {@code < internalKey}, or {@link #NONE}: LevelDB's FindLessThan, a
   * search from the head as {@link #seek} is (nodes have no back links). A node linked after it
   * meanwhile may also sort before the key: callers step back from a key, where that is harmless.
   */
  int lessThan(byte[] internalKey) {
    int x = (int) (search(internalKey) >>> 32);
    return x == head ? NONE : x;
  }

  /**
   * One search for {@code internalKey}: the last node whose key is smaller (the head when none) in
   * the high 32 bits, and the level-0 successor it compared with the key in the low 32 bits (addresses
   * are non-negative ints). The successor is the one compared, not the link loaded again: a node
   * linked in between may sort before the key, and {@link #seek} must not return it.
   */
  private long search(byte[] internalKey) {
    int x = head;
    int level = height - 1;
    while (true) {
      int next = next(x, level);
      if (next != NONE && compare(next, internalKey) < 0) {
        x = next;
      } else if (level == 0) {
        return ((long) x << 32) | next;
      } else {
        level--;
      }
    }
  }

  /** The first node, or {@link #NONE} when empty. */
  int first() {
    return next(head, 0);
  }

  /** The last node, or {@link #NONE} when empty. */
  int last() {
    int x = head;
    int level = height - 1;
    while (true) {
      int next = next(x, level);
      if (next != NONE) {
        x = next;
      } else if (level == 0) {
        return x == head ? NONE : x;
      } else {
        level--;
      }
    }
  }

  /** The node after {@code node}, or {@link #NONE}. */
  int next(int node) {
    return next(node, 0);
  }

  /** A copy of the node's internal key. */
  byte[] key(int node) {
    byte[] chunk = chunk(node);
    int at = node & OFFSET_MASK;
    int keyStart = keyStart(chunk, at);
    return Arrays.copyOfRange(chunk, keyStart, keyStart + keyLength(chunk, at));
  }

  /** A copy of the node's value (a shared empty array for an empty one, which no one can change). */
  byte[] value(int node) {
    byte[] chunk = chunk(node);
    int at = node & OFFSET_MASK;
    int valueChunk = (int) INT.get(chunk, at + VALUE_CHUNK);
    if (valueChunk == NO_VALUE_CHUNK) {
      return EMPTY;
    }
    int offset = (int) INT.get(chunk, at + VALUE_OFFSET);
    return Arrays.copyOfRange(valueChunks[valueChunk], offset, offset + (int) INT.get(chunk, at + VALUE_LENGTH));
  }

  /** Compares the node's internal key with {@code internalKey} ({@link InternalKeyComparator}). */
  int compare(int node, byte[] internalKey) {
    byte[] chunk = chunk(node);
    int at = node & OFFSET_MASK;
    return InternalKeyComparator.compare(chunk, keyStart(chunk, at), keyLength(chunk, at), internalKey);
  }

  /** Whether the node's user key equals {@code internalKey}'s. */
  boolean sameUserKey(int node, byte[] internalKey) {
    byte[] chunk = chunk(node);
    int at = node & OFFSET_MASK;
    int keyStart = keyStart(chunk, at);
    int userLength = keyLength(chunk, at) - InternalKey.TRAILER_BYTES;
    return Arrays.equals(chunk, keyStart, keyStart + userLength,
        internalKey, 0, internalKey.length - InternalKey.TRAILER_BYTES);
  }

  /** The node's trailer: {@code sequence << 8 | type}. */
  long trailer(int node) {
    byte[] chunk = chunk(node);
    int at = node & OFFSET_MASK;
    return Coding.getFixed64(chunk, keyStart(chunk, at) + keyLength(chunk, at) - InternalKey.TRAILER_BYTES);
  }

  private static int keyStart(byte[] chunk, int at) {
    return at + TOWER + 4 * (int) INT.get(chunk, at + HEIGHT);
  }

  private static int keyLength(byte[] chunk, int at) {
    return (int) INT.get(chunk, at + KEY_LENGTH);
  }

  /**
   * A link read with acquire semantics: a plain read and an acquire fence. A byte-array view's
   * {@code getAcquire} was tried first; in JMH the fence was never slower (docs/results/issue20
   * {@code memtable-jmh/}; the runs are too noisy to say it is faster).
   */
  private int next(int node, int level) {
    int next = (int) INT.get(chunk(node), (node & OFFSET_MASK) + TOWER + 4 * level);
    VarHandle.acquireFence();
    return next;
  }

  /**
   * Links {@code next} after {@code node} at {@code level} with release semantics: a release
   * fence, then a plain write, the pair {@link #next}'s acquire fence reads. Not the view's
   * {@code setRelease}: from JDK 22 on (JDK-8318966) a byte-array view supports only plain get
   * and set and throws {@code UnsupportedOperationException} for every other mode (on Temurin
   * 25.0.3 every put failed), and the fence works the same on 17. A link is 4-aligned (the
   * {@code setRelease} this replaces would have thrown on 17 otherwise), so the plain write is one
   * aligned store that no reader sees torn.
   */
  private void publishNext(int node, int level, int next) {
    VarHandle.releaseFence();
    INT.set(chunk(node), (node & OFFSET_MASK) + TOWER + 4 * level, next);
  }

  private int plainNext(int node, int level) {
    return (int) INT.get(chunk(node), (node & OFFSET_MASK) + TOWER + 4 * level);
  }

  private byte[] chunk(int address) {
    return chunks[address >>> CHUNK_SHIFT];
  }

  private void setInt(int node, int field, int value) {
    INT.set(chunk(node), (node & OFFSET_MASK) + field, value);
  }

  private static int nodeBytes(int height, int keyLength) {
    return (TOWER + 4 * height + keyLength + 3) & ~3;
  }

  /** Writer only. A 4-aligned address of {@code bytes} zeroed bytes. */
  private int allocate(int bytes) {
    if (bytes > CHUNK_BYTES / 4) {
      return newChunk(bytes, true);
    }
    if (allocOffset + bytes > CHUNK_BYTES) {
      newChunk(CHUNK_BYTES, false);
    }
    int address = (allocChunk << CHUNK_SHIFT) | allocOffset;
    allocOffset += bytes;
    return address;
  }

  private int newChunk(int bytes, boolean dedicated) {
    if (chunkCount > MAX_CHUNKS) {
      throw new IllegalStateException("memtable arena full: " + MAX_CHUNKS + " chunks of " + CHUNK_BYTES + " bytes");
    }
    int index = chunkCount++;
    chunks[index] = new byte[bytes];
    if (!dedicated) {
      allocChunk = index;
      allocOffset = 0;
    }
    return index << CHUNK_SHIFT;
  }

  /**
   * Writer only. Copies {@code value} into the value arena: its chunk in the high 32 bits
   * ({@link #NO_VALUE_CHUNK} for an empty value), its offset there in the low 32.
   */
  private long storeValue(byte[] value) {
    int length = value.length;
    if (length == 0) {
      return (long) NO_VALUE_CHUNK << 32;
    }
    int chunk;
    int offset;
    if (length > VALUE_CHUNK_BYTES / 4) {
      chunk = newValueChunk(length); // dedicated: the shared chunk stays current
      offset = 0;
    } else {
      if (valueAllocChunk == NO_VALUE_CHUNK || valueAllocOffset + length > valueChunks[valueAllocChunk].length) {
        int bytes = valueAllocChunk == NO_VALUE_CHUNK ? FIRST_VALUE_CHUNK_BYTES
            : Math.min(doubled(valueChunks[valueAllocChunk].length), VALUE_CHUNK_BYTES);
        while (bytes < length) {
          bytes = doubled(bytes);
        }
        valueAllocChunk = newValueChunk(bytes);
        valueAllocOffset = 0;
      }
      chunk = valueAllocChunk;
      offset = valueAllocOffset;
      valueAllocOffset += length;
    }
    System.arraycopy(value, 0, valueChunks[chunk], offset, length);
    return (long) chunk << 32 | offset;
  }

  /** The chunk size after {@code bytes}: the next power of two, less the header's room. */
  private static int doubled(int bytes) {
    return 2 * (bytes + ARRAY_HEADER_ROOM) - ARRAY_HEADER_ROOM;
  }

  private int newValueChunk(int bytes) {
    if (valueChunkCount == MAX_VALUE_CHUNKS) {
      throw new IllegalStateException("memtable value arena full: " + MAX_VALUE_CHUNKS + " chunks");
    }
    int index = valueChunkCount++;
    valueChunks[index] = new byte[bytes];
    return index;
  }

  /** Writer only: 1 with probability 3/4, 2 with 3/16, ... (LevelDB's). */
  private int randomHeight() {
    int h = 1;
    while (h < MAX_HEIGHT && nextRandom() % BRANCHING == 0) {
      h++;
    }
    return h;
  }

  private int nextRandom() {
    long x = random; // xorshift64
    x ^= x << 13;
    x ^= x >>> 7;
    x ^= x << 17;
    random = x;
    return (int) (x >>> 33);
  }
}
