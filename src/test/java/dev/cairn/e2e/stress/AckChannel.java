package dev.cairn.e2e.stress;

import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/**
 * The stress process's report to the driver, one line per event on standard output:
 *
 * <pre>
 *   open                       the database is open and the workers are starting
 *   A thread index S|N         operation {@code index} of {@code thread} was acknowledged (synced or not)
 *   reopened                   a worker closed and reopened the database in-process
 *   FAIL message               a check inside the stress process failed
 * </pre>
 *
 * <p>An acknowledgement counts once its line is in the pipe: the pipe belongs to the kernel and
 * survives the SIGKILL of this process, so the driver reads every line written before the kill.
 * Each line goes out in one {@code write(2)} of fewer than PIPE_BUF bytes, which the kernel never
 * interleaves or tears, so the driver never sees half an acknowledgement.
 */
final class AckChannel {
  private final OutputStream out;

  /** {@code out} must write each array in one system call (a FileOutputStream, not a buffer). */
  AckChannel(OutputStream out) {
    this.out = out;
  }

  /** The channel on this process's standard output. */
  static AckChannel onStandardOutput() {
    return new AckChannel(new FileOutputStream(FileDescriptor.out));
  }

  void open() {
    line("open");
  }

  void ack(int thread, long index, boolean sync) {
    line("A " + thread + " " + index + (sync ? " S" : " N"));
  }

  void reopened() {
    line("reopened");
  }

  void fail(String message) {
    String oneLine = message.replace('\n', ' ');
    line("FAIL " + (oneLine.length() > 3000 ? oneLine.substring(0, 3000) : oneLine));
  }

  private synchronized void line(String text) {
    try {
      out.write((text + "\n").getBytes(StandardCharsets.UTF_8));
    } catch (IOException e) {
      throw new UncheckedIOException("writing to the driver's pipe", e);
    }
  }
}
