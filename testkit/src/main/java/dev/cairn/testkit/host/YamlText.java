package dev.cairn.testkit.host;

/** Values written into a child's YAML configuration (Cassandra's {@code cassandra.yaml}). */
public final class YamlText {
  private YamlText() {}

  /** {@code value} as a YAML single-quoted scalar: quotes doubled, nothing else escaped. */
  public static String quoted(String value) {
    return "'" + value.replace("'", "''") + "'";
  }
}
