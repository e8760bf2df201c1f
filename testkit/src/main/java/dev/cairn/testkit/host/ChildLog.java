package dev.cairn.testkit.host;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * A child server's log: its stdout and stderr appended to one file, which a failure message quotes
 * the end of.
 */
public final class ChildLog {
  private ChildLog() {}

  /** The last {@code lines} lines of {@code log}, headed by where they come from, for failure messages. */
  public static String tail(Path log, int lines) {
    try {
      List<String> all = Files.readAllLines(log, StandardCharsets.UTF_8);
      List<String> tail = all.subList(Math.max(0, all.size() - lines), all.size());
      return "last " + tail.size() + " lines of " + log + ":\n" + String.join("\n", tail);
    } catch (IOException e) {
      return "(could not read " + log + ": " + e + ")";
    }
  }

  /**
   * A logback configuration that sends INFO and above to stdout (which the launcher appends to
   * the log file), for a child that logs through logback (Cassandra).
   *
   * @param writer who wrote the file, for its header comment
   */
  public static String logbackToStdout(String writer) {
    return String.join("\n",
        "<!-- Written by " + writer + ": INFO and above to stdout (node.log). -->",
        "<configuration>",
        "  <appender name=\"STDOUT\" class=\"ch.qos.logback.core.ConsoleAppender\">",
        "    <encoder>",
        "      <pattern>%d{HH:mm:ss.SSS} %-5level [%thread] %logger{36} - %msg%n</pattern>",
        "    </encoder>",
        "  </appender>",
        "  <root level=\"INFO\">",
        "    <appender-ref ref=\"STDOUT\"/>",
        "  </root>",
        "</configuration>",
        "");
  }
}
