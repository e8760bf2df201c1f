package dev.cairn;

/**
 * Per-write durability. {@code sync == true}: the call returns only after the write-ahead log
 * has been forced to the device.
 */
public record WriteOptions(boolean sync) {
  public static final WriteOptions SYNC = new WriteOptions(true);
  public static final WriteOptions NO_SYNC = new WriteOptions(false);
}
