package dev.cairn.iter;

/**
 * How a user iterator reads the values the engine stores, where they carry more than the user's
 * value (a TTL database's write times): the user's value, or null when the stored value is to be
 * treated as a tombstone (it has expired).
 */
@FunctionalInterface
public interface StoredValues {
  /** The user's value of {@code stored} (an array the caller may keep), or null to hide the key. */
  byte[] userValue(byte[] stored);
}
