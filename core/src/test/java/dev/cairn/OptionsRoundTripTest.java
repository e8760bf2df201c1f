package dev.cairn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import dev.cairn.config.CompactionSettings;
import dev.cairn.fs.LocalFileSystem;
import java.lang.reflect.Constructor;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.RecordComponent;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@link Options#toBuilder()} keeps every setting. The options are found by reflection, so an
 * option added later is covered without touching this test: for each one, a builder with only that
 * option changed from its default must give options whose copy equals them field by field (a
 * copy that dropped the lazy-deletion threshold of block compaction once went unnoticed). The
 * options are the builder's fields: an {@link Options} reads its values from a copy of its builder.
 */
class OptionsRoundTripTest {
  @Test
  void toBuilderKeepsEveryOption() throws Exception {
    Options defaults = Options.defaults();
    List<String> covered = new ArrayList<>();
    for (Field field : optionFields()) {
      Object changed = differentValue(field.getType(), field.get(values(defaults)));
      Method setter = Options.Builder.class.getMethod(field.getName(), setterType(field.getType()));
      Options.Builder builder = Options.builder();
      setter.invoke(builder, changed);
      Options options = builder.build();
      assertNotEquals(field.get(values(defaults)), field.get(values(options)),
          field.getName() + " was not changed by its setter");
      Options copy = options.toBuilder().build();
      for (Field f : optionFields()) {
        if (f.getType().isPrimitive() || f.getType().isEnum() || f.getType().isRecord()) {
          assertEquals(f.get(values(options)), f.get(values(copy)),
              "toBuilder() lost " + f.getName() + " (after changing " + field.getName() + ")");
        } else {
          assertSame(f.get(values(options)), f.get(values(copy)),
              "toBuilder() lost " + f.getName() + " (after changing " + field.getName() + ")");
        }
      }
      covered.add(field.getName());
    }
    assertEquals(optionFields().size(), covered.size());
  }

  /** The builder copy an Options reads its values from. */
  private static Object values(Options o) throws ReflectiveOperationException {
    Field values = Options.class.getDeclaredField("values");
    values.setAccessible(true);
    return values.get(o);
  }

  /** The options: the builder's fields, each with a setter of its name. */
  private static List<Field> optionFields() {
    List<Field> out = new ArrayList<>();
    for (Field f : Options.Builder.class.getDeclaredFields()) {
      if (!Modifier.isStatic(f.getModifiers())) {
        f.setAccessible(true);
        out.add(f);
      }
    }
    return out;
  }

  private static Class<?> setterType(Class<?> type) {
    return type;
  }

  /** A valid value other than {@code current}, for each kind of option. */
  private static Object differentValue(Class<?> type, Object current) throws Exception {
    if (type == boolean.class) {
      return !(Boolean) current;
    }
    if (type == int.class) {
      // From 0 (a derived count), a count every such option accepts.
      return (Integer) current == 0 ? 16 : (Integer) current + 1;
    }
    if (type == long.class) {
      // A step every byte-sized option accepts, also from 0 (a derived or disabled setting).
      return (Long) current + (64 << 10);
    }
    if (type == double.class) {
      double d = (Double) current;
      return d > 0 && d <= 1 ? d / 2 : d + 1;
    }
    if (type.isEnum()) {
      Object[] constants = type.getEnumConstants();
      if (current == null) {
        return constants[0]; // unset: a default chosen at build (e.g. the style's compaction priority)
      }
      return constants[(((Enum<?>) current).ordinal() + 1) % constants.length];
    }
    if (type == dev.cairn.config.Compression.class) { // unset (null) for the bottommost: as compression
      dev.cairn.config.Compression other = dev.cairn.config.Compression.zstd(7);
      return other.equals(current) ? dev.cairn.config.Compression.lz4() : other;
    }
    if (type.isRecord()) {
      return differentRecord(type, current);
    }
    if (type == CompactionSettings.class) {
      CompactionSettings other = CompactionSettings.twoPhase(CompactionSettings.Buffer.defaults());
      return other.equals(current) ? CompactionSettings.defaults() : other;
    }
    if (type == dev.cairn.fs.FileSystem.class) {
      return new LocalFileSystem();
    }
    if (type == java.time.Duration.class) {
      return java.time.Duration.ofHours(1).equals(current) ? java.time.Duration.ofDays(1) : java.time.Duration.ofHours(1);
    }
    if (type == java.time.Clock.class) {
      return java.time.Clock.fixed(java.time.Instant.EPOCH, java.time.ZoneOffset.UTC);
    }
    if (type == dev.cairn.CompactionFilter.class) {
      return (dev.cairn.CompactionFilter) (context, key, value) -> dev.cairn.CompactionFilter.Decision.KEEP;
    }
    if (type == dev.cairn.MergeOperator.class) {
      return dev.cairn.MergeOperator.counter();
    }
    throw new AssertionError("OptionsRoundTripTest does not know how to vary an option of type " + type
        + "; teach differentValue()");
  }

  /** The record with the first component that can be varied, varied (validation may refuse some). */
  private static Object differentRecord(Class<?> type, Object current) throws Exception {
    RecordComponent[] components = type.getRecordComponents();
    Class<?>[] types = new Class<?>[components.length];
    Object[] values = new Object[components.length];
    for (int i = 0; i < components.length; i++) {
      types[i] = components[i].getType();
      values[i] = components[i].getAccessor().invoke(current);
    }
    Constructor<?> canonical = type.getDeclaredConstructor(types);
    for (int i = 0; i < components.length; i++) {
      Object[] varied = values.clone();
      try {
        varied[i] = differentValue(types[i], values[i]);
        return canonical.newInstance(varied);
      } catch (ReflectiveOperationException | AssertionError e) {
        // This component cannot be varied this way (or validation refused): try the next.
      }
    }
    throw new AssertionError("no component of " + type + " could be varied");
  }
}
