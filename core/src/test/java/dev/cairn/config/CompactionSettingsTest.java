package dev.cairn.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cairn.compaction.buffer.BufferConfig;
import dev.cairn.compaction.dlc.DlcConfig;
import java.util.Arrays;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * The compaction settings admit only what the engine runs: the combinations the options once
 * refused at build time (the buffer with a priority, two-phase levels with block compaction or
 * DLC, an idle drain under DLC) have no way to be written, and the values that remain are checked
 * where they are made.
 */
class CompactionSettingsTest {

  private static Set<String> permitted(Class<?> sealed) {
    return Arrays.stream(sealed.getPermittedSubclasses()).map(Class::getSimpleName).collect(Collectors.toSet());
  }

  @Test
  void theDefaultIsLeveledThroughTheBufferAtItsDefaultsRunAtOnce() {
    CompactionSettings d = CompactionSettings.defaults();
    assertEquals(new CompactionSettings.Leveled(new CompactionSettings.Buffer(BufferConfig.defaults()),
        new CompactionSettings.Immediate(0)), d);
    assertEquals(0, d.idleDrainMillis());
  }

  @Test
  void twoPhaseLevelsTakeNeitherBlockCompactionNorAScheduler() {
    assertEquals(Set.of("PlainMerge", "Buffer"), permitted(CompactionSettings.TwoPhaseExecution.class));
    assertEquals(Set.of("execution", "idleDrainMillis"), Arrays.stream(CompactionSettings.TwoPhase.class
        .getRecordComponents()).map(c -> c.getName()).collect(Collectors.toSet()));
  }

  @Test
  void theBufferAndTwoPhaseTakeNoPriority() {
    assertEquals(Set.of("config"), Arrays.stream(CompactionSettings.Buffer.class.getRecordComponents())
        .map(c -> c.getName()).collect(Collectors.toSet()));
    assertEquals(0, CompactionSettings.PlainMerge.class.getRecordComponents().length);
  }

  @Test
  void dlcHasNoIdleDrain() {
    assertEquals(Set.of("Immediate", "Dlc"), permitted(CompactionSettings.Scheduler.class));
    CompactionSettings.Leveled dlc = CompactionSettings.leveled(CompactionSettings.Table.defaults(), DlcConfig.defaults());
    assertEquals(0, dlc.idleDrainMillis());
    assertEquals(250, CompactionSettings.leveled(CompactionSettings.Buffer.defaults())
        .withScheduler(new CompactionSettings.Immediate(250)).idleDrainMillis());
  }

  @Test
  void badValuesAreRefusedNamingThem() {
    IllegalArgumentException idle = assertThrows(IllegalArgumentException.class,
        () -> new CompactionSettings.Immediate(-1));
    assertTrue(idle.getMessage().contains("idleDrainMillis = -1"), idle.getMessage());
    idle = assertThrows(IllegalArgumentException.class,
        () -> new CompactionSettings.TwoPhase(new CompactionSettings.PlainMerge(), CompactionSettings.MAX_IDLE_DRAIN_MILLIS + 1));
    assertTrue(idle.getMessage().contains("idleDrainMillis"), idle.getMessage());
    NullPointerException none = assertThrows(NullPointerException.class,
        () -> new CompactionSettings.Leveled(null, CompactionSettings.Immediate.defaults()));
    assertTrue(none.getMessage().contains("execution"), none.getMessage());
    none = assertThrows(NullPointerException.class, () -> new CompactionSettings.Table(null));
    assertTrue(none.getMessage().contains("priority"), none.getMessage());
  }
}
