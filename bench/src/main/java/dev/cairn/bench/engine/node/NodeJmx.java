package dev.cairn.bench.engine.node;

import dev.cairn.bench.engine.EngineMetrics;
import dev.cairn.testkit.host.LoopbackPorts;
import java.io.IOException;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import javax.management.Attribute;
import javax.management.AttributeList;
import javax.management.InstanceNotFoundException;
import javax.management.MBeanServerConnection;
import javax.management.MalformedObjectNameException;
import javax.management.ObjectName;
import javax.management.remote.JMXConnector;
import javax.management.remote.JMXConnectorFactory;
import javax.management.remote.JMXServiceURL;

/**
 * The runner's JMX connection to a server's child JVM on 127.0.0.1: metric reads (a missing bean
 * or attribute reads as absent, since a server registers its beans as it goes), bean queries and
 * operations. Any other failure names the server and the bean.
 */
public final class NodeJmx implements AutoCloseable {
  private final String name;
  private final JMXConnector connector;
  private final MBeanServerConnection mbeans;

  private NodeJmx(String name, JMXConnector connector) throws IOException {
    this.name = name;
    this.connector = connector;
    this.mbeans = connector.getMBeanServerConnection();
  }

  /**
   * A connection, or null while the port is not yet open or not yet answering (the registry is
   * open but the server not yet exported): {@link NodeJvm#connectJmx} asks again until the
   * server's start deadline.
   */
  static NodeJmx tryConnect(String name, int port) {
    JMXServiceURL url;
    try {
      url = new JMXServiceURL("service:jmx:rmi:///jndi/rmi://127.0.0.1:" + port + "/jmxrmi");
    } catch (IOException e) {
      throw new IllegalArgumentException("JMX port " + port, e);
    }
    if (!LoopbackPorts.accepts(port)) {
      return null;
    }
    try {
      return new NodeJmx(name, JMXConnectorFactory.connect(url));
    } catch (IOException e) {
      return null;
    }
  }

  /** An attribute, or null when the bean or the attribute is not there. */
  public Object attribute(String objectName, String attribute) {
    return attributes(objectName, attribute).get(attribute);
  }

  /**
   * Several attributes of one bean in one call (Hadoop's beans answer from one snapshot); those
   * the bean lacks are absent, and all are when the bean is not registered.
   */
  public Map<String, Object> attributes(String objectName, String... names) {
    try {
      AttributeList list = mbeans.getAttributes(objectName(objectName), names);
      Map<String, Object> m = new HashMap<>();
      for (Attribute a : list.asList()) {
        m.put(a.getName(), a.getValue());
      }
      return m;
    } catch (InstanceNotFoundException e) {
      return Map.of();
    } catch (Exception e) {
      throw new IllegalStateException(name + ": JMX read of " + objectName + " failed: " + e, e);
    }
  }

  /** A metric's {@code Count}, or {@link EngineMetrics#UNAVAILABLE}. */
  public long count(String objectName) {
    Object v = attribute(objectName, "Count");
    return v instanceof Number n ? n.longValue() : EngineMetrics.UNAVAILABLE;
  }

  /** The names of the registered beans matching {@code pattern}. */
  public Set<ObjectName> beans(String pattern) {
    try {
      return mbeans.queryNames(objectName(pattern), null);
    } catch (IOException e) {
      throw new IllegalStateException(name + ": JMX query " + pattern + " failed: " + e, e);
    }
  }

  public boolean isRegistered(String objectName) {
    try {
      return mbeans.isRegistered(objectName(objectName));
    } catch (IOException e) {
      throw new IllegalStateException(name + ": JMX query " + objectName + " failed: " + e, e);
    }
  }

  /** Invokes an operation and returns its result. */
  public Object invoke(String objectName, String operation, Object[] arguments, String[] signature) {
    try {
      return mbeans.invoke(objectName(objectName), operation, arguments, signature);
    } catch (Exception e) {
      throw new IllegalStateException(name + ": JMX " + operation + " on " + objectName + " failed: " + e, e);
    }
  }

  /** Closes the connection; the server is going anyway, so a failure is ignored. */
  @Override
  public void close() {
    try {
      connector.close();
    } catch (IOException e) {
      // the server is going anyway
    }
  }

  private static ObjectName objectName(String name) {
    try {
      return new ObjectName(name);
    } catch (MalformedObjectNameException e) {
      throw new IllegalArgumentException(name, e);
    }
  }
}
