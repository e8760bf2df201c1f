package dev.cairn;

/** The checks {@link Options.Builder#build()} makes, each naming the option it refuses. */
final class OptionChecks {
  private OptionChecks() {}

  static void present(String name, Object value) {
    if (value == null) {
      throw new IllegalArgumentException("option " + name + " must not be null");
    }
  }

  static void range(String name, long value, long min, long max) {
    if (value < min || value > max) {
      throw new IllegalArgumentException(
          "option " + name + " = " + value + " is out of range [" + min + ", " + max + "]");
    }
  }
}
