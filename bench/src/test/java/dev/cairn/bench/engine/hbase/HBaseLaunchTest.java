package dev.cairn.bench.engine.hbase;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cairn.config.Compression;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/** The standalone server's configuration and command line, without starting it. */
class HBaseLaunchTest {
  private static final long MIB = 1L << 20;
  private static final Path DATA = Path.of("/runs/out/data/hbase-default-rangehot");
  private static final Path NODE = Path.of("/runs/out/data/hbase-default-rangehot-node");

  private static HBaseLaunch launch(long cacheBytes, long memstoreBytes) {
    return launch(cacheBytes, memstoreBytes, Compression.none());
  }

  private static HBaseLaunch launch(long cacheBytes, long memstoreBytes, Compression compression) {
    return launch(cacheBytes, memstoreBytes, compression, true);
  }

  private static HBaseLaunch launch(long cacheBytes, long memstoreBytes, Compression compression, boolean scaledCleaning) {
    HBaseInstall install = new HBaseInstall(Path.of("/build/hbase-lib"), Path.of("/build/cairn-hbase-adapter.jar"),
        List.of("--add-opens", "java.base/java.nio=ALL-UNNAMED"));
    HBaseServer.Settings settings = new HBaseServer.Settings(1024 * MIB, cacheBytes, memstoreBytes, 256 * MIB, 0.0098,
        64 * MIB, compression, scaledCleaning);
    return new HBaseLaunch(install, settings, DATA, NODE, 20001, 20002, 20003, 20004, Path.of("/jdk17"));
  }

  /** The properties as Hadoop's Configuration would read them back from the file. */
  private static Map<String, String> parse(String siteXml) throws Exception {
    Document doc = DocumentBuilderFactory.newInstance().newDocumentBuilder()
        .parse(new ByteArrayInputStream(siteXml.getBytes(StandardCharsets.UTF_8)));
    Map<String, String> m = new LinkedHashMap<>();
    NodeList props = doc.getElementsByTagName("property");
    for (int i = 0; i < props.getLength(); i++) {
      Element p = (Element) props.item(i);
      m.put(p.getElementsByTagName("name").item(0).getTextContent(),
          p.getElementsByTagName("value").item(0).getTextContent());
    }
    return m;
  }

  @Test
  void theSiteFileIsAStandaloneServerOnLoopbackOnly() throws Exception {
    HBaseLaunch l = launch(60 * MIB, MIB);
    Map<String, String> site = parse(l.configurationFiles().get(NODE.resolve("conf/hbase-site.xml")));
    assertEquals(l.siteProperties(), site, "the file reads back as written");
    assertEquals("false", site.get("hbase.cluster.distributed"));
    assertEquals("file:///runs/out/data/hbase-default-rangehot", site.get("hbase.rootdir"));
    assertEquals("file:///runs/out/data/hbase-default-rangehot-state/wal", site.get("hbase.wal.dir"),
        "WALs stay out of the directory the runner sizes");
    assertEquals("20001", site.get("hbase.zookeeper.property.clientPort"));
    assertEquals("20002", site.get("hbase.master.port"));
    assertEquals("20003", site.get("hbase.regionserver.port"));
    for (Map.Entry<String, String> e : site.entrySet()) {
      String k = e.getKey();
      if (k.endsWith("hostname") || k.endsWith("address") || k.endsWith("quorum")) {
        assertEquals("127.0.0.1", e.getValue(), k);
      }
    }
    assertEquals("-1", site.get("hbase.master.info.port"));
    assertEquals("-1", site.get("hbase.regionserver.info.port"));
    assertEquals(Long.toString(60 * MIB), site.get("hfile.onheap.block.cache.fixed.size"));
    assertEquals(Long.toString(MIB), site.get("hbase.hregion.memstore.flush.size"));
    assertEquals("0.0098", site.get("io.storefile.bloom.error.rate"));
  }

  @Test
  void aMemtableBelowHBasesFloorLowersTheFloorAndNoCacheTurnsTheCacheOff() throws Exception {
    Map<String, String> site = launch(0, MIB / 2).siteProperties();
    assertEquals(Long.toString(MIB / 2), site.get("hbase.hregion.memstore.flush.size.limit"));
    assertEquals("0", site.get("hfile.block.cache.size"));
    assertFalse(site.containsKey("hfile.onheap.block.cache.fixed.size"));
  }

  @Test
  void aCodecLoadsHBasesOwnModuleAndNoCodecSetsNothing() throws Exception {
    Map<String, String> lz4 = parse(launch(60 * MIB, MIB, Compression.lz4()).configurationFiles()
        .get(NODE.resolve("conf/hbase-site.xml")));
    assertEquals("org.apache.hadoop.hbase.io.compress.lz4.Lz4Codec", lz4.get("hbase.io.compress.lz4.codec"));
    Map<String, String> zstd = launch(60 * MIB, MIB, Compression.zstd(6)).siteProperties();
    assertEquals("org.apache.hadoop.hbase.io.compress.zstd.ZstdCodec", zstd.get("hbase.io.compress.zstd.codec"));
    assertEquals("6", zstd.get("hbase.io.compress.zstd.level"));
    assertTrue(launch(60 * MIB, MIB).siteProperties().keySet().stream().noneMatch(k -> k.startsWith("hbase.io.compress")));
    assertEquals("ZSTD", HBaseCodecs.familyCompression(Compression.zstd(6)));
    assertEquals("NONE", HBaseCodecs.familyCompression(Compression.none()));
  }

  @Test
  void archivedFilesGoOnTheRunnersScaledPeriodsOrOnHBasesOwn() {
    Map<String, String> scaled = launch(60 * MIB, MIB).siteProperties();
    assertEquals("2000", scaled.get("hbase.master.cleaner.interval"));
    assertEquals("2000", scaled.get("hbase.master.hfilecleaner.ttl"));
    assertEquals("2000", scaled.get("hbase.hfile.compaction.discharger.interval"));
    Map<String, String> own = launch(60 * MIB, MIB, Compression.none(), false).siteProperties();
    assertTrue(own.keySet().stream().noneMatch(k -> k.contains("cleaner") || k.contains("discharger")), own.toString());
  }

  @Test
  void valuesAreEscapedForXml() throws Exception {
    String xml = HBaseLaunch.siteXml(Map.of("k", "a<b & \"c\">"));
    assertEquals(Map.of("k", "a<b & \"c\">"), parse(xml));
  }

  @Test
  void theCommandRunsHMasterOnJdk17WithHBasesFlagsAndJmxOnLoopback() {
    HBaseLaunch l = launch(60 * MIB, MIB);
    List<String> cmd = l.javaCommand().toList();
    assertEquals("/jdk17/bin/java", cmd.get(0));
    assertEquals(List.of("org.apache.hadoop.hbase.master.HMaster", "start"), cmd.subList(cmd.size() - 2, cmd.size()));
    assertTrue(cmd.contains("-Xms1024m") && cmd.contains("-Xmx1024m"), "the heap is fixed: " + cmd);
    int opens = cmd.indexOf("--add-opens");
    assertEquals("java.base/java.nio=ALL-UNNAMED", cmd.get(opens + 1));
    assertTrue(cmd.contains("-Dcom.sun.management.jmxremote.port=20004"));
    assertTrue(cmd.contains("-Dcom.sun.management.jmxremote.host=127.0.0.1"));
    assertTrue(cmd.contains("-Djava.rmi.server.hostname=127.0.0.1"));
    String cp = cmd.get(cmd.indexOf("-cp") + 1);
    assertEquals(NODE.resolve("conf") + ":/build/hbase-lib/*:/build/cairn-hbase-adapter.jar", cp,
        "the configuration directory first, so that hbase-site.xml and the metrics file are found");
  }

  @Test
  void theClientFindsZooKeeperOnLoopback() {
    Map<String, String> c = launch(60 * MIB, MIB).clientSettings();
    assertEquals("127.0.0.1", c.get("hbase.zookeeper.quorum"));
    assertEquals("20001", c.get("hbase.zookeeper.property.clientPort"));
  }

  @Test
  void metricsAreRefreshedWellWithinTheRunnersSecond() {
    String m = launch(60 * MIB, MIB).configurationFiles().get(NODE.resolve("conf/hadoop-metrics2-hbase.properties"));
    assertTrue(m.contains("*.periodMillis=250"), m);
  }
}
