package dev.cairn.hbase;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cairn.hbase.tiered.TieredDlcConfig;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;

class CairnOptionsTest {

  private static CairnOptions read(Map<String, String> values) {
    return CairnOptions.read(values::get, values.keySet());
  }

  @Test
  void unsetKeysTakeTheDefaults() {
    CairnOptions o = read(Map.of());
    assertEquals(CairnOptions.defaults(), o);
    assertFalse(o.dryRun());
    assertTrue(o.delay());
    assertEquals(60, o.maxDelaySeconds());
  }

  @Test
  void aHighLimitAboveTheDefaultRateBoundStillMakesALoadModel() {
    CairnOptions o = read(Map.of(CairnOptions.IO_HIGH_LIMIT_MB, "2000", CairnOptions.IO_LOW_LIMIT_MB, "1000"));
    assertEquals(2_000_000_000L, o.dlcConfig().ioHighLimitBytesPerSecond());
  }

  @Test
  void setKeysAreRead() {
    CairnOptions o = read(Map.of(CairnOptions.DRY_RUN, "true", CairnOptions.IO_HIGH_LIMIT_MB, "2",
        CairnOptions.IO_LOW_LIMIT_MB, "1", CairnOptions.MAX_DELAY_SECONDS, "0", "hbase.hstore.blockingStoreFiles", "20"));
    assertTrue(o.dryRun());
    assertEquals(2_000_000, o.dlcConfig().ioHighLimitBytesPerSecond());
    assertEquals(1_000_000, o.dlcConfig().ioLowLimitBytesPerSecond());
    TieredDlcConfig t = o.tieredConfig(3, 10, 1.2, 128L << 20);
    assertFalse(t.delayIsBounded());
    assertEquals(256L << 20, t.freshMaxBytes(), "fresh up to two flushes");
  }

  @Test
  void hbaseMergeLimitsThePolicyCannotTakeAreRefusedByHBasesKeys() {
    CairnOptions o = CairnOptions.defaults();
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> o.tieredConfig(3, 2000, 1.2, 1 << 20));
    assertTrue(e.getMessage().startsWith("hbase.hstore.compaction.min 3, .max 2000, .ratio 1.2 are outside"), e.getMessage());
    e = assertThrows(IllegalArgumentException.class, () -> o.tieredConfig(3, 10, 0, 1 << 20));
    assertTrue(e.getMessage().contains("ratio must be finite and > 0"), e.getMessage());
    assertEquals(1000, o.tieredConfig(1000, 1000, 1.2, 1 << 20).maxFiles(), "HBase's values within bounds are kept");
  }

  @Test
  void badValuesAreRefusedByKey() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> read(Map.of(CairnOptions.BOUND_MARGIN_FILES, "0")));
    assertEquals("cairn.compaction.bound.margin.files must be in [1, 1000]: 0", e.getMessage());
    e = assertThrows(IllegalArgumentException.class, () -> read(Map.of(CairnOptions.DRY_RUN, "yes")));
    assertEquals("cairn.compaction.dry.run must be true or false: 'yes'", e.getMessage());
    e = assertThrows(IllegalArgumentException.class, () -> read(Map.of(CairnOptions.PART_FILES, "four")));
    assertEquals("cairn.compaction.part.files must be an integer: 'four'", e.getMessage());
    e = assertThrows(IllegalArgumentException.class,
        () -> read(Map.of(CairnOptions.IO_HIGH_LIMIT_MB, "5", CairnOptions.IO_LOW_LIMIT_MB, "5")));
    assertEquals("cairn.compaction.io.low.limit.mb must be in [0, 4]: 5", e.getMessage());
  }

  @Test
  void anUnknownKeyUnderThePrefixIsRefused() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> read(Map.of("cairn.compaction.max.delay.secs", "10")));
    assertTrue(e.getMessage().startsWith("unknown option cairn.compaction.max.delay.secs; known: "), e.getMessage());
  }

  @Test
  void readsFromAHadoopConfiguration() {
    Configuration conf = new Configuration(false);
    conf.set(CairnOptions.PART_FILES, "6");
    List<String> keys = new java.util.ArrayList<>();
    conf.forEach(e -> keys.add(e.getKey()));
    assertEquals(6, CairnOptions.read(conf::get, keys).partFiles());
  }
}
