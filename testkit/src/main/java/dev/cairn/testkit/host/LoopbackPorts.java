package dev.cairn.testkit.host;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.ArrayList;
import java.util.List;

/** Ports on 127.0.0.1 for a child server: only the loopback address, never a public one. */
public final class LoopbackPorts {
  private LoopbackPorts() {}

  /**
   * {@code n} distinct ports that were free on 127.0.0.1 a moment ago (all held open together,
   * so no two are the same). Another process may take one before the child binds it; a child that
   * fails to bind says so in its log.
   */
  public static int[] free(int n) throws IOException {
    List<ServerSocket> held = new ArrayList<>();
    try {
      int[] ports = new int[n];
      for (int i = 0; i < n; i++) {
        ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
        held.add(s);
        ports[i] = s.getLocalPort();
      }
      return ports;
    } finally {
      for (ServerSocket s : held) {
        s.close();
      }
    }
  }

  /** Whether something accepts connections on {@code port} of 127.0.0.1 (within 500 ms). */
  public static boolean accepts(int port) {
    try (Socket s = new Socket()) {
      s.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 500);
      return true;
    } catch (IOException e) {
      return false;
    }
  }
}
