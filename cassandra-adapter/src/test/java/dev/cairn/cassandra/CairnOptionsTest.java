package dev.cairn.cassandra;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import org.junit.jupiter.api.Test;

class CairnOptionsTest {

  @Test
  void defaultsAreTheDocumentedOnes() {
    CairnOptions o = CairnOptions.defaultOptions();
    assertFalse(o.dryRun());
    assertTrue(o.delayL0());
    assertTrue(o.spareHot());
    assertEquals(4, o.l0CompactionTrigger());
    assertEquals(32, o.maxL0SSTables());
    assertEquals(60, o.maxDelaySeconds());
    assertEquals(60_000, o.dlcConfig().maxDelayMillis());
    assertEquals(32, o.dlcConfig().fullTriggerL0Files());
    assertEquals(48_000_000, o.dlcConfig().ioHighLimitBytesPerSecond());
    assertEquals(2.0, o.hotSparingConfig().hotFactor());
  }

  @Test
  void valuesAreRead() {
    CairnOptions o = CairnOptions.parse(Map.of("dry_run", "TRUE", "max_delay_seconds", " 5 ",
        "hot_factor", "3.5", "io_high_limit_mb", "100", "io_low_limit_mb", "100"));
    assertTrue(o.dryRun());
    assertEquals(5, o.maxDelaySeconds());
    assertEquals(3.5, o.hotFactor());
    assertEquals(100_000_000, o.dlcConfig().ioLowLimitBytesPerSecond());
  }

  @Test
  void aBadValueIsRefusedWithTheOptionAndItsRange() {
    assertEquals("max_delay_seconds must be in [1, 86400], but was 0",
        refused(Map.of("max_delay_seconds", "0")));
    assertEquals("max_delay_seconds must be an integer in [1, 86400], but was 'soon'",
        refused(Map.of("max_delay_seconds", "soon")));
    assertEquals("dry_run must be true or false, but was 'yes'", refused(Map.of("dry_run", "yes")));
    assertEquals("hot_factor must be in (1.0, 1000.0], but was 1",
        refused(Map.of("hot_factor", "1")));
    assertEquals("hot_factor must be a number in (1.0, 1000.0], but was 'NaNa'",
        refused(Map.of("hot_factor", "NaNa")));
    assertEquals("hot_factor must be in (1.0, 1000.0], but was NaN",
        refused(Map.of("hot_factor", "NaN")));
  }

  @Test
  void boundsBetweenOptionsAreChecked() {
    assertEquals("max_l0_sstables must be in [8, 1000], but was 6 (it may not be below l0_compaction_trigger, 8)",
        refused(Map.of("l0_compaction_trigger", "8", "max_l0_sstables", "6")));
    assertEquals("io_low_limit_mb must be in [0, 10], but was 20 (it may not exceed io_high_limit_mb)",
        refused(Map.of("io_high_limit_mb", "10", "io_low_limit_mb", "20")));
  }

  @Test
  void otherKeysAreLeftForLcsAndCassandra() {
    Map<String, String> rest = CairnOptions.withoutOwnOptions(Map.of(
        "class", "dev.cairn.cassandra.CairnCompactionStrategy", "dry_run", "true",
        "sstable_size_in_mb", "160", "no_such_option", "1"));
    assertEquals(Map.of("class", "dev.cairn.cassandra.CairnCompactionStrategy",
        "sstable_size_in_mb", "160", "no_such_option", "1"), rest);
  }

  private static String refused(Map<String, String> options) {
    return assertThrows(IllegalArgumentException.class, () -> CairnOptions.parse(options)).getMessage();
  }
}
