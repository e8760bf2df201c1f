package dev.cairn;

import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import javax.management.Attribute;
import javax.management.AttributeList;
import javax.management.AttributeNotFoundException;
import javax.management.DynamicMBean;
import javax.management.InstanceAlreadyExistsException;
import javax.management.InstanceNotFoundException;
import javax.management.JMException;
import javax.management.MBeanAttributeInfo;
import javax.management.MBeanInfo;
import javax.management.MBeanServer;
import javax.management.ObjectName;

/**
 * A database's {@link Stats} as a read-only JMX MBean on the platform MBean server, where JVM
 * operators look (JConsole, VisualVM, a JMX scraper): {@code dev.cairn:type=Database,name="NAME"},
 * one attribute per figure, named by its path in {@code Stats} ({@code writes.amplification},
 * {@code levels.1.bytes}, {@code cache.hits}: the rule is docs/operations.md's, "Metrics").
 * Each read takes a fresh {@link Cairn#stats()}; reading several attributes at once takes one.
 * Registering opens no socket: the platform MBean server is in-process, and whether it is reachable
 * from outside is the JVM's own settings ({@code com.sun.management.jmxremote}).
 *
 * <pre>{@code
 * try (Cairn db = Cairn.open(dir, options);
 *     StatsMBean.Registration jmx = StatsMBean.register(db, "orders")) {
 *   ...
 * }
 * }</pre>
 */
public final class StatsMBean {
  /** The JMX domain of every Cairn MBean. */
  public static final String DOMAIN = "dev.cairn";

  private StatsMBean() {}

  /** The name a database registered as {@code name} has: {@code dev.cairn:type=Database,name="NAME"}. */
  public static String objectName(String name) {
    return jmxName(name).getCanonicalName();
  }

  private static ObjectName jmxName(String name) {
    Objects.requireNonNull(name, "name");
    try {
      return new ObjectName(DOMAIN + ":type=Database,name=" + ObjectName.quote(name));
    } catch (JMException e) {
      throw new IllegalArgumentException("no JMX name for database name '" + name + "': " + e.getMessage(), e);
    }
  }

  /**
   * Registers {@code db}'s statistics as {@code name} on the platform MBean server, until the
   * returned registration is closed (close it before or with the database: a closed database's
   * attributes read as an error). Two databases may not share a name.
   *
   * @throws IllegalArgumentException if another MBean is registered as {@code name}
   */
  public static Registration register(Cairn db, String name) {
    Objects.requireNonNull(db, "db");
    ObjectName objectName = jmxName(name);
    MBeanServer server = ManagementFactory.getPlatformMBeanServer();
    try {
      server.registerMBean(new Bean(db, name), objectName);
    } catch (InstanceAlreadyExistsException e) {
      throw new IllegalArgumentException("a database is already registered as '" + name + "' (" + objectName + ")", e);
    } catch (JMException e) {
      throw new IllegalStateException("registering " + objectName + ": " + e.getMessage(), e);
    }
    return new Registration(server, objectName);
  }

  /** A registration, undone by {@link #close()} (once; later calls do nothing). */
  public static final class Registration implements AutoCloseable {
    private final MBeanServer server;
    private final ObjectName objectName;
    private boolean closed;

    private Registration(MBeanServer server, ObjectName objectName) {
      this.server = server;
      this.objectName = objectName;
    }

    /** The MBean's name, as a JMX client looks it up. */
    public String objectName() {
      return objectName.getCanonicalName();
    }

    @Override
    public synchronized void close() {
      if (closed) {
        return;
      }
      closed = true;
      try {
        server.unregisterMBean(objectName);
      } catch (InstanceNotFoundException e) {
        // Unregistered by someone else already: nothing left to undo.
      } catch (JMException e) {
        throw new IllegalStateException("unregistering " + objectName + ": " + e.getMessage(), e);
      }
    }
  }

  /** The MBean itself: one read-only attribute per figure, read from a fresh {@code stats()}. */
  private static final class Bean implements DynamicMBean {
    private final Cairn db;
    private final String name;
    private final MBeanInfo info;

    private Bean(Cairn db, String name) {
      this.db = db;
      this.name = name;
      List<MBeanAttributeInfo> attributes = new ArrayList<>();
      for (Map.Entry<String, Object> e : StatsAttributes.flatten(db.stats()).entrySet()) {
        String type = e.getValue().getClass().getName();
        attributes.add(new MBeanAttributeInfo(e.getKey(), type, e.getKey(), true, false, false));
      }
      this.info = new MBeanInfo(Bean.class.getName(), "Cairn database " + name + ": its Stats",
          attributes.toArray(MBeanAttributeInfo[]::new), null, null, null);
    }

    @Override
    public Object getAttribute(String attribute) throws AttributeNotFoundException {
      Object value = StatsAttributes.flatten(db.stats()).get(attribute);
      if (value == null) {
        throw new AttributeNotFoundException("database " + name + " has no figure '" + attribute + "'");
      }
      return value;
    }

    @Override
    public AttributeList getAttributes(String[] attributes) {
      Map<String, Object> all = StatsAttributes.flatten(db.stats());
      AttributeList out = new AttributeList();
      for (String a : attributes) {
        if (all.containsKey(a)) {
          out.add(new Attribute(a, all.get(a)));
        }
      }
      return out;
    }

    @Override
    public void setAttribute(Attribute attribute) throws AttributeNotFoundException {
      throw new AttributeNotFoundException("database statistics are read-only: " + attribute.getName());
    }

    @Override
    public AttributeList setAttributes(AttributeList attributes) {
      return new AttributeList(); // none set: every attribute is read-only
    }

    @Override
    public Object invoke(String actionName, Object[] params, String[] signature) {
      throw new UnsupportedOperationException("database statistics have no operations: " + actionName);
    }

    @Override
    public MBeanInfo getMBeanInfo() {
      return info;
    }
  }
}
