package dev.cairn.util;

import java.util.AbstractList;
import java.util.Collection;
import java.util.Objects;
import java.util.RandomAccess;

/**
 * An immutable list over an array, of this one class whatever its size: for the lists the read
 * path walks on every read (a version's levels and buffer runs, the memtables a read sees).
 * {@code List.copyOf}'s lists are of one class for none or three and more elements and of
 * another for one or two. Compiled code that has seen one class is thrown away when the other
 * arrives, so with {@code List.copyOf} a flush that took level 0 from three files to one
 * deoptimised the whole read path (docs/results/issue21/s12-jit/).
 *
 * <p>Null elements are refused, as by {@code List.copyOf}. Mutators throw {@link
 * UnsupportedOperationException} ({@link AbstractList}'s defaults).
 */
public final class FixedList<E> extends AbstractList<E> implements RandomAccess {
  private static final FixedList<Object> EMPTY = new FixedList<>(new Object[0]);

  private final Object[] elements;

  private FixedList(Object[] elements) {
    this.elements = elements;
  }

  /** An immutable copy of {@code source}; throws NullPointerException on a null element. */
  public static <E> FixedList<E> copyOf(Collection<? extends E> source) {
    if (source instanceof FixedList<? extends E> fixed) {
      @SuppressWarnings("unchecked")
      FixedList<E> same = (FixedList<E>) fixed;
      return same;
    }
    Object[] copy = source.toArray();
    if (copy.length == 0) {
      return empty();
    }
    for (Object e : copy) {
      Objects.requireNonNull(e, "null element");
    }
    return new FixedList<>(copy);
  }

  @SuppressWarnings("unchecked")
  public static <E> FixedList<E> empty() {
    return (FixedList<E>) EMPTY;
  }

  @Override
  @SuppressWarnings("unchecked")
  public E get(int index) {
    return (E) elements[index];
  }

  @Override
  public int size() {
    return elements.length;
  }

  @Override
  public boolean isEmpty() {
    return elements.length == 0;
  }
}
