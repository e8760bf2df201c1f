package dev.cairn.wal;

/**
 * Constants of the block framing shared by {@link LogWriter} and {@link LogReader}; the layout
 * is specified in docs/log_format.md.
 *
 * <pre>
 *   fragment := fixed32 masked crc32c(type | payload) | fixed16 length | byte type | payload
 * </pre>
 */
final class LogFormat {
  static final int BLOCK_BYTES = 32 * 1024;
  static final int HEADER_BYTES = 7;
  static final int MAX_PAYLOAD_BYTES = BLOCK_BYTES - HEADER_BYTES;

  /** Fragment types; the ids are written to disk and never change or get reused. */
  static final int ZERO = 0;
  static final int FULL = 1;
  static final int FIRST = 2;
  static final int MIDDLE = 3;
  static final int LAST = 4;

  private LogFormat() {}

  static String typeName(int type) {
    return switch (type) {
      case ZERO -> "ZERO";
      case FULL -> "FULL";
      case FIRST -> "FIRST";
      case MIDDLE -> "MIDDLE";
      case LAST -> "LAST";
      default -> "type " + type;
    };
  }
}
