package dev.cairn.bench.engine.node;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Collectors;

/**
 * What a server engine says about its server when it closes (what the report has no column for):
 * kept as {@code node-summary.txt} in the node directory, which the stop keeps, and printed to
 * the runner's stderr with the engine's name before each line.
 */
public final class NodeSummary {
  public static final String FILE_NAME = "node-summary.txt";

  private NodeSummary() {}

  public static void write(Path nodeDir, String engineName, String text) {
    try {
      Files.writeString(nodeDir.resolve(FILE_NAME), text, StandardCharsets.UTF_8);
    } catch (IOException e) {
      // the summary is printed anyway
    }
    System.err.print(text.lines().map(l -> "[" + engineName + "] " + l + "\n").collect(Collectors.joining()));
  }
}
