package dev.cairn.testkit.host;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.function.Function;
import java.util.function.UnaryOperator;

/**
 * How a {@link ChildJvm} is started ({@link ChildJvm#launch}): the command, the working directory,
 * the log its stdout and stderr are appended to, the start deadline, and optionally a header line
 * for the log, a wrapper around the command line and environment variables the child must not
 * inherit. {@link #start} starts it.
 */
public final class ChildJvmLaunch {
  private final JavaCommand command;
  private final Path directory;
  private final Path logFile;
  private final Duration startTimeout;
  private Function<String, String> logHeader;
  private UnaryOperator<List<String>> wrapper = UnaryOperator.identity();
  private Set<String> unsetEnvironment = Set.of();

  ChildJvmLaunch(JavaCommand command, Path directory, Path logFile, Duration startTimeout) {
    this.command = Objects.requireNonNull(command, "command");
    this.directory = Objects.requireNonNull(directory, "directory");
    this.logFile = Objects.requireNonNull(logFile, "logFile");
    this.startTimeout = Objects.requireNonNull(startTimeout, "startTimeout");
    this.logHeader = line -> "===== " + command.mainClass() + ": " + line + "\n";
  }

  /**
   * The text appended to the log before the child's output, made from its command line (words
   * joined by spaces); by default one line naming the main class and the command. A log kept
   * across restarts shows each start this way.
   */
  public ChildJvmLaunch logHeader(Function<String, String> header) {
    this.logHeader = Objects.requireNonNull(header, "header");
    return this;
  }

  /**
   * A wrapper around the command line, run in its place: a program that sets something up for
   * the child and then executes the command (the runner's joins a memory cgroup).
   */
  public ChildJvmLaunch wrappedBy(UnaryOperator<List<String>> wrapper) {
    this.wrapper = Objects.requireNonNull(wrapper, "wrapper");
    return this;
  }

  /**
   * Variables of this process's environment the child must not inherit ({@code
   * JAVA_TOOL_OPTIONS}, say, which would add this JVM's agents or flags to the child's).
   */
  public ChildJvmLaunch withoutEnvironment(Set<String> names) {
    this.unsetEnvironment = Set.copyOf(names);
    return this;
  }

  /** The command line the child runs: the Java command, wrapped if a wrapper is set. */
  public List<String> commandLine() {
    return List.copyOf(wrapper.apply(command.toList()));
  }

  /**
   * Appends the header to the log, then starts the child in the directory with stdout and stderr
   * appended to the log. The start deadline runs from here.
   */
  public ChildJvm start() throws IOException {
    List<String> line = commandLine();
    Files.writeString(logFile, logHeader.apply(String.join(" ", line)), StandardCharsets.UTF_8,
        StandardOpenOption.CREATE, StandardOpenOption.APPEND);
    ProcessBuilder builder = new ProcessBuilder(line)
        .directory(directory.toFile())
        .redirectErrorStream(true)
        .redirectOutput(ProcessBuilder.Redirect.appendTo(logFile.toFile()));
    builder.environment().keySet().removeAll(unsetEnvironment);
    return ChildJvm.start(builder, logFile, startTimeout);
  }
}
