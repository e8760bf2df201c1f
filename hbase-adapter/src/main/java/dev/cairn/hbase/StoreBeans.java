package dev.cairn.hbase;

import java.lang.management.ManagementFactory;
import java.util.HashMap;
import java.util.Map;
import javax.management.JMException;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import javax.management.StandardMBean;
import org.apache.hadoop.hbase.regionserver.HStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The plugin's per-store JMX beans, named {@code dev.cairn.hbase:type=<type>,table=...,region=...,
 * family=...}. A store reopened in the same JVM (a region reopened on its server, or moved
 * between a mini cluster's servers) has the same name as the store it replaces, whose bean may
 * leave later: the newest store takes the name, and a store removes the bean only while the name
 * is still its own.
 */
final class StoreBeans {
  private static final Logger LOG = LoggerFactory.getLogger(StoreBeans.class);
  /** Which owner holds each registered name. */
  private static final Map<ObjectName, Object> OWNERS = new HashMap<>();

  private StoreBeans() {}

  /** Registers {@code bean} for {@code store} under {@code type}; null (logged) when JMX refuses. */
  static <T> ObjectName register(String type, HStore store, Object owner, T bean, Class<T> beanInterface) {
    try {
      ObjectName name = new ObjectName("dev.cairn.hbase:type=" + type + ",table="
          + ObjectName.quote(store.getHRegion().getRegionInfo().getTable().getNameAsString())
          + ",region=" + store.getHRegion().getRegionInfo().getEncodedName()
          + ",family=" + ObjectName.quote(store.getColumnFamilyName()));
      MBeanServer server = ManagementFactory.getPlatformMBeanServer();
      synchronized (OWNERS) {
        if (OWNERS.put(name, owner) != null || server.isRegistered(name)) {
          server.unregisterMBean(name);
        }
        server.registerMBean(new StandardMBean(bean, beanInterface), name);
      }
      return name;
    } catch (JMException | RuntimeException e) {
      LOG.warn("cairn: no {} bean for {}", type, store, e);
      return null;
    }
  }

  /** Removes the bean {@code name} if {@code owner} still holds it; a null name is ignored. */
  static void unregister(ObjectName name, Object owner) {
    if (name == null) {
      return;
    }
    synchronized (OWNERS) {
      if (OWNERS.remove(name, owner)) {
        try {
          ManagementFactory.getPlatformMBeanServer().unregisterMBean(name);
        } catch (JMException e) {
          LOG.debug("cairn: bean {} already gone", name);
        }
      }
    }
  }
}
