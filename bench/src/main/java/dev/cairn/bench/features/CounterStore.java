package dev.cairn.bench.features;

/**
 * One open database as {@code features} uses it: counters as 8-byte little-endian values
 * ({@link dev.cairn.CounterOperator#encode}), incremented by a merge operand or by a read, an add
 * and a put. Errors are unchecked; closing waits for what the engine does on close.
 */
interface CounterStore extends AutoCloseable {
  /** Adds the counter {@code operand} encodes to {@code key}'s value, through the engine's merge operator. */
  void merge(byte[] key, byte[] operand);

  /** {@code key}'s value, its operands merged; null for a key never written. */
  byte[] get(byte[] key);

  void put(byte[] key, byte[] value);

  @Override
  void close();
}
