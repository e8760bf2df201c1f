package dev.cairn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Map;
import javax.management.AttributeNotFoundException;
import javax.management.MBeanAttributeInfo;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A database's statistics read through the platform MBean server, as a JMX client reads them. */
class StatsMBeanTest {
  @TempDir Path dir;
  private final MBeanServer server = ManagementFactory.getPlatformMBeanServer();

  private static void write(Cairn db, int n) {
    for (int i = 0; i < n; i++) {
      db.put(("key" + i).getBytes(StandardCharsets.UTF_8), new byte[100]);
    }
  }

  @Test
  void everyFigureIsAnAttributeNamedByItsPathAndReadsTheDatabaseNow() throws Exception {
    try (Cairn db = Cairn.open(dir.resolve("db"), Options.defaults());
        StatsMBean.Registration jmx = StatsMBean.register(db, "orders")) {
      ObjectName name = new ObjectName("dev.cairn:type=Database,name=\"orders\"");
      assertEquals(name.getCanonicalName(), jmx.objectName());
      write(db, 1000);
      db.flush();
      Map<String, Object> figures = StatsAttributes.flatten(db.stats());
      MBeanAttributeInfo[] attributes = server.getMBeanInfo(name).getAttributes();
      assertEquals(figures.keySet(), Arrays.stream(attributes).map(MBeanAttributeInfo::getName)
          .collect(java.util.stream.Collectors.toCollection(java.util.LinkedHashSet::new)));
      for (String path : new String[] {"writes.userBytesWritten", "flush.count", "levels.0.files", "cache.hits",
          "lastSequence", "flush.caching.mode"}) {
        assertTrue(figures.containsKey(path), path + " in " + figures.keySet());
      }
      assertEquals(1L, server.getAttribute(name, "flush.count"));
      assertEquals(1, server.getAttribute(name, "levels.0.files"));
      assertEquals(1000L, server.getAttribute(name, "lastSequence"));
      write(db, 10);
      assertEquals(1010L, server.getAttribute(name, "lastSequence"), "each read takes the database as it is now");
      assertThrows(AttributeNotFoundException.class, () -> server.getAttribute(name, "writes.nothing"));
    }
    assertFalse(server.isRegistered(new ObjectName(StatsMBean.objectName("orders"))),
        "closing the registration unregisters");
  }

  @Test
  void twoDatabasesMayNotShareANameAndAClosedRegistrationFreesIt() {
    try (Cairn a = Cairn.open(dir.resolve("a"), Options.defaults());
        Cairn b = Cairn.open(dir.resolve("b"), Options.defaults())) {
      StatsMBean.Registration first = StatsMBean.register(a, "shared name, with: punctuation");
      IllegalArgumentException twice = assertThrows(IllegalArgumentException.class,
          () -> StatsMBean.register(b, "shared name, with: punctuation"));
      assertTrue(twice.getMessage().contains("already registered"), twice.getMessage());
      first.close();
      first.close();
      StatsMBean.register(b, "shared name, with: punctuation").close();
    }
  }
}
