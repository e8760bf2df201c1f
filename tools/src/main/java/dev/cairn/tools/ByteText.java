package dev.cairn.tools;

import dev.cairn.key.UserKeys;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;

/**
 * How the tool reads and prints keys and values. Escaped (the default): printable ASCII but the
 * backslash as is, any other byte as {@code \xNN}; input takes the same form ({@code \\} is a
 * backslash too) and any other character as its UTF-8 bytes, so what {@code get} or {@code scan}
 * prints can be typed back. Hex ({@code --hex}): two hex digits per byte, both ways, as ldb's
 * {@code --hex}.
 */
record ByteText(boolean hex) {
  byte[] parse(String text, String what) {
    if (hex) {
      try {
        return HexFormat.of().parseHex(text);
      } catch (IllegalArgumentException e) {
        throw new CairnTool.UsageException(what + " is not hex (two digits per byte): '" + text + "'");
      }
    }
    ByteArrayOutputStream out = new ByteArrayOutputStream(text.length());
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (c != '\\') {
        int end = Character.isHighSurrogate(c) && i + 1 < text.length() ? i + 2 : i + 1;
        out.writeBytes(text.substring(i, end).getBytes(StandardCharsets.UTF_8));
        i = end - 1;
      } else if (i + 1 < text.length() && text.charAt(i + 1) == '\\') {
        out.write('\\');
        i++;
      } else if (text.startsWith("x", i + 1) && isHex(text, i + 2) && isHex(text, i + 3)) {
        out.write(Integer.parseInt(text.substring(i + 2, i + 4), 16));
        i += 3;
      } else {
        throw new CairnTool.UsageException(what + " has a backslash that is not \\\\ or \\xNN at character " + i
            + ": '" + text + "'");
      }
    }
    return out.toByteArray();
  }

  String render(byte[] bytes) {
    return hex ? HexFormat.of().formatHex(bytes) : UserKeys.printable(bytes);
  }

  private static boolean isHex(String s, int i) {
    return i < s.length() && Character.digit(s.charAt(i), 16) >= 0;
  }
}
