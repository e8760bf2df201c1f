package dev.cairn.iter;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.cairn.CairnIterator;
import dev.cairn.key.InternalKey;
import dev.cairn.key.UserKeys;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.random.RandomGenerator;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * Random walks over an iterator in both directions, checked after every move against a sorted
 * reference: runs of {@code next()} and {@code prev()} of random length, changes of direction
 * anywhere (at either end too), and every kind of seek. Internal iterators are checked entry by
 * entry, user iterators key by key.
 */
public final class IteratorWalk {
  private IteratorWalk() {}

  /**
   * Walks {@code it}, an internal iterator over exactly {@code reference}'s entries in {@code
   * order}, for {@code moves} moves; seek targets come from {@code targets}.
   */
  public static void internal(InternalIterator it, NavigableMap<byte[], byte[]> reference, Comparator<byte[]> order,
      Supplier<byte[]> targets, RandomGenerator rnd, int moves, String where) {
    List<byte[]> keys = new ArrayList<>(reference.keySet());
    NavigableMap<byte[], Integer> index = new TreeMap<>(order);
    for (int i = 0; i < keys.size(); i++) {
      index.put(keys.get(i), i);
    }
    Walk walk = new Walk(rnd);
    int position = -1; // -1: invalid
    for (int move = 0; move < moves; move++) {
      String op;
      switch (walk.next(position >= 0)) {
        case FIRST -> {
          op = "seekToFirst";
          it.seekToFirst();
          position = keys.isEmpty() ? -1 : 0;
        }
        case LAST -> {
          op = "seekToLast";
          it.seekToLast();
          position = keys.size() - 1;
        }
        case SEEK -> {
          byte[] t = targets.get();
          op = "seek(" + render(t) + ")";
          it.seek(t);
          Map.Entry<byte[], Integer> e = index.ceilingEntry(t);
          position = e == null ? -1 : e.getValue();
        }
        case SEEK_FOR_PREV -> {
          byte[] t = targets.get();
          op = "seekForPrev(" + render(t) + ")";
          it.seekForPrev(t);
          Map.Entry<byte[], Integer> e = index.floorEntry(t);
          position = e == null ? -1 : e.getValue();
        }
        case NEXT -> {
          op = "next";
          it.next();
          position = position + 1 < keys.size() ? position + 1 : -1;
        }
        default -> {
          op = "prev";
          it.prev();
          position = position - 1;
        }
      }
      String at = where + ", move " + move + " (" + op + ")";
      assertEquals(position >= 0, it.isValid(), "valid after " + at);
      if (position >= 0) {
        assertArrayEquals(keys.get(position), it.key(), "key after " + at);
        assertArrayEquals(reference.get(keys.get(position)), it.value(), "value after " + at);
      }
    }
  }

  /**
   * Walks {@code it}, a user iterator whose live keys within its bounds are exactly {@code
   * expected}'s, for {@code moves} moves; keys convert to bytes with {@code encode}.
   */
  public static <K> void user(CairnIterator it, NavigableMap<K, byte[]> expected, Function<K, byte[]> encode,
      Supplier<K> targets, RandomGenerator rnd, int moves, Supplier<String> where) {
    Walk walk = new Walk(rnd);
    Function<K, String> show = k -> k == null ? "none" : UserKeys.printable(encode.apply(k));
    K current = null;
    for (int move = 0; move < moves; move++) {
      String op;
      switch (walk.next(current != null)) {
        case FIRST -> {
          op = "seekToFirst";
          it.seekToFirst();
          current = expected.isEmpty() ? null : expected.firstKey();
        }
        case LAST -> {
          op = "seekToLast";
          it.seekToLast();
          current = expected.isEmpty() ? null : expected.lastKey();
        }
        case SEEK -> {
          K t = targets.get();
          op = "seek(" + show.apply(t) + ")";
          it.seek(encode.apply(t));
          current = expected.ceilingKey(t);
        }
        case SEEK_FOR_PREV -> {
          K t = targets.get();
          op = "seekForPrev(" + show.apply(t) + ")";
          it.seekForPrev(encode.apply(t));
          current = expected.floorKey(t);
        }
        case NEXT -> {
          op = "next from " + show.apply(current);
          it.next();
          current = expected.higherKey(current);
        }
        default -> {
          op = "prev from " + show.apply(current);
          it.prev();
          current = expected.lowerKey(current);
        }
      }
      boolean valid = current != null;
      if (valid != it.isValid()) {
        assertEquals(valid, it.isValid(), "valid after move " + move + " (" + op + ")"
            + (it.isValid() ? ", at " + UserKeys.printable(it.key()) : ", expected " + show.apply(current)) + ", "
            + where.get());
      }
      if (valid) {
        assertArrayEquals(encode.apply(current), it.key(), "key after move " + move + " (" + op + "), " + where.get());
        assertArrayEquals(expected.get(current), it.value(),
            "value of " + show.apply(current) + " after move " + move + " (" + op + "), " + where.get());
      }
    }
  }

  private static String render(byte[] key) {
    return InternalKey.isValid(key) ? InternalKey.describe(key) : java.util.Arrays.toString(key);
  }

  enum Move { FIRST, LAST, SEEK, SEEK_FOR_PREV, NEXT, PREV }

  /** Chooses moves: mostly runs of steps in one direction, a seek now and then, a seek when invalid. */
  private static final class Walk {
    private final RandomGenerator rnd;
    private Move direction = Move.NEXT;
    private int runLeft;

    Walk(RandomGenerator rnd) {
      this.rnd = rnd;
    }

    Move next(boolean valid) {
      if (!valid || rnd.nextInt(12) == 0) {
        runLeft = 0;
        return Move.values()[rnd.nextInt(4)];
      }
      if (runLeft == 0) {
        direction = rnd.nextBoolean() ? Move.NEXT : Move.PREV;
        runLeft = 1 + rnd.nextInt(rnd.nextBoolean() ? 3 : 40);
      }
      runLeft--;
      return direction;
    }
  }
}
