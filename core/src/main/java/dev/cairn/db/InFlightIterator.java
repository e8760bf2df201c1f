package dev.cairn.db;

import dev.cairn.CairnIterator;
import java.util.function.UnaryOperator;

/**
 * A user iterator whose positioning calls count as calls in flight ({@link InFlightCalls}): after
 * the database closes they raise {@link dev.cairn.DatabaseClosedException}, and close waits for
 * one that is running. {@link #key()}, {@link #value()} and {@link #isValid()} only return what
 * the last positioning call decoded, so they need no guard; {@link #close()} always works, so that
 * an iterator can be released after its database.
 */
final class InFlightIterator implements CairnIterator {
  private final CairnIterator delegate;
  private final InFlightCalls calls;
  /** What a positioning call's failure becomes (a read-only view's "changed underneath"). */
  private final UnaryOperator<RuntimeException> failures;

  InFlightIterator(CairnIterator delegate, InFlightCalls calls) {
    this(delegate, calls, UnaryOperator.identity());
  }

  InFlightIterator(CairnIterator delegate, InFlightCalls calls, UnaryOperator<RuntimeException> failures) {
    this.delegate = delegate;
    this.calls = calls;
    this.failures = failures;
  }

  @Override
  public boolean isValid() {
    return delegate.isValid();
  }

  @Override
  public void seekToFirst() {
    inFlight(delegate::seekToFirst);
  }

  @Override
  public void seek(byte[] key) {
    inFlight(() -> delegate.seek(key));
  }

  @Override
  public void seekToLast() {
    inFlight(delegate::seekToLast);
  }

  @Override
  public void seekForPrev(byte[] key) {
    inFlight(() -> delegate.seekForPrev(key));
  }

  @Override
  public void next() {
    inFlight(delegate::next);
  }

  @Override
  public void prev() {
    inFlight(delegate::prev);
  }

  /** Runs a positioning call as a call in flight, its failure translated. */
  private void inFlight(Runnable move) {
    calls.enter();
    try {
      move.run();
    } catch (RuntimeException e) {
      throw failures.apply(e);
    } finally {
      calls.exit();
    }
  }

  @Override
  public byte[] key() {
    return delegate.key();
  }

  @Override
  public byte[] value() {
    return delegate.value();
  }

  @Override
  public void close() {
    delegate.close();
  }
}
