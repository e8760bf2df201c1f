package dev.cairn.bench.run;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A {@link RunResult} handed from a forked run's JVM to the runner that started it
 * ({@link ForkedRunner}), and kept by a long series so that it resumes run by run
 * ({@link KeptRuns}). Exact, NaN included, which summary.json is not (JSON has no NaN). A series
 * may resume under a newer runner, so each version reads the ones before it: version 3 had no
 * mixes, read as none. A file of an unknown version fails loudly.
 *
 * <p>Format, big-endian ({@link DataOutputStream}): the UTF string {@value #MAGIC}; then the
 * record's components in declaration order: a string as a presence byte (0 null, 1 present) and
 * modified UTF-8; a double as 8 bytes (NaN kept); a list as an int count and its items; a map as
 * an int count and (string key, tagged value) pairs, a tagged value being a tag byte ('N' null,
 * 'S' string, 'D' double, 'I' int, 'J' long, 'Z' boolean; the types the values had) and its payload; a {@link Sample} and a
 * {@link FollowUp} as their own components in order, its mixes last: an int count, then each
 * mix's key (a string) and its three figures.
 */
public final class RunResultFile {
  static final String MAGIC = "cairn-run-result-4";
  /** The version before the mixes: read, with none. */
  static final String MAGIC_3 = "cairn-run-result-3";

  private RunResultFile() {}

  public static void write(Path file, RunResult r) throws IOException {
    try (DataOutputStream out = new DataOutputStream(new BufferedOutputStream(Files.newOutputStream(file)))) {
      out.writeUTF(MAGIC);
      string(out, r.engine());
      string(out, r.workload());
      string(out, r.error());
      out.writeInt(r.samples().size());
      for (Sample s : r.samples()) {
        out.writeDouble(s.elapsedSeconds());
        string(out, s.engine());
        string(out, s.workload());
        doubles(out, s.readsPerSecond(), s.writesPerSecond(), s.scansPerSecond(), s.hitRatio(), s.readP50Micros(),
            s.readP99Micros(), s.writeP99Micros(), s.compactionBytesWritten());
        out.writeLong(s.dbBytes());
        out.writeDouble(s.loadAverage());
        out.writeInt(s.l0Files());
        string(out, s.loadClass());
        out.writeBoolean(s.highPhase());
        out.writeDouble(s.bufferBytes());
      }
      doubles(out, r.readOpsPerSecond(), r.writeOpsPerSecond(), r.scanOpsPerSecond(), r.hitRatioMean(),
          r.hitRatioMin(), r.hitRatioMax(), r.readP50Micros(), r.readP99Micros(), r.writeP99Micros(),
          r.writeAmplification(), r.spaceAmplification(), r.deviceBytesWritten(), r.compactionBytesWritten(),
          r.userBytesWritten());
      out.writeLong(r.dbBytes());
      doubles(out, r.stallMicros(), r.loadAverageMean(), r.loadSeconds(), r.runSeconds());
      out.writeInt(r.unhonouredSettings().size());
      for (String s : r.unhonouredSettings()) {
        string(out, s);
      }
      out.writeInt(r.config().size());
      for (Map.Entry<String, Object> e : r.config().entrySet()) {
        string(out, e.getKey());
        tagged(out, e.getValue());
      }
      doubles(out, r.highPhaseReadP99Micros(), r.highPhaseOpsPerSecond(), r.highPhaseDrops(),
          r.laterHighPhaseReadP99Micros(), r.spaceAmplificationPeak());
      out.writeInt(r.writeAmplificationByLevel().size());
      for (double d : r.writeAmplificationByLevel()) {
        out.writeDouble(d);
      }
      FollowUp f = r.followUp();
      doubles(out, f.mixedCacheMisses(), f.mixedHitRatio(), f.mixedReadsPerSecond(), f.mixedWritesPerSecond(),
          f.scanOpsPerSecond(), f.mixedSimulatedSeeks(), f.readOpsPerSecond(), f.readHitRatio());
      doubles(out, r.bufferBytesMean(), r.bufferBytesMax(), r.simulatedSeeks(), r.blockCacheMisses(),
          r.deviceReads(), r.settleSeconds());
      out.writeInt(f.mixes().size());
      for (MixFigures m : f.mixes()) {
        string(out, m.mix());
        doubles(out, m.opsPerSecond(), m.writeAmplification(), m.hitRatio());
      }
    }
  }

  public static RunResult read(Path file) throws IOException {
    try (DataInputStream in = new DataInputStream(new BufferedInputStream(Files.newInputStream(file)))) {
      String magic = in.readUTF();
      if (!magic.equals(MAGIC) && !magic.equals(MAGIC_3)) {
        throw new IOException(file + ": not a run result of this runner (starts with '" + magic + "', expected '"
            + MAGIC + "'): was the forked JVM started from another jar?");
      }
      String engine = string(in);
      String workload = string(in);
      String error = string(in);
      int sampleCount = in.readInt();
      List<Sample> samples = new ArrayList<>(sampleCount);
      for (int i = 0; i < sampleCount; i++) {
        samples.add(new Sample(in.readDouble(), string(in), string(in), in.readDouble(), in.readDouble(),
            in.readDouble(), in.readDouble(), in.readDouble(), in.readDouble(), in.readDouble(), in.readDouble(),
            in.readLong(), in.readDouble(), in.readInt(), string(in), in.readBoolean(), in.readDouble()));
      }
      double[] figures = doubles(in, 14);
      long dbBytes = in.readLong();
      double[] times = doubles(in, 4);
      int unhonouredCount = in.readInt();
      List<String> unhonoured = new ArrayList<>(unhonouredCount);
      for (int i = 0; i < unhonouredCount; i++) {
        unhonoured.add(string(in));
      }
      int configCount = in.readInt();
      Map<String, Object> config = new LinkedHashMap<>();
      for (int i = 0; i < configCount; i++) {
        config.put(string(in), tagged(in, file));
      }
      double[] phases = doubles(in, 5);
      int levels = in.readInt();
      List<Double> byLevel = new ArrayList<>(levels);
      for (int i = 0; i < levels; i++) {
        byLevel.add(in.readDouble());
      }
      double[] f = doubles(in, 8);
      double[] tail = doubles(in, 6);
      List<MixFigures> mixes = new ArrayList<>();
      if (magic.equals(MAGIC)) {
        int mixCount = in.readInt();
        for (int i = 0; i < mixCount; i++) {
          String mix = string(in);
          double[] m = doubles(in, 3);
          mixes.add(new MixFigures(mix, m[0], m[1], m[2]));
        }
      }
      return new RunResult(engine, workload, error, List.copyOf(samples),
          figures[0], figures[1], figures[2], figures[3], figures[4], figures[5], figures[6], figures[7], figures[8],
          figures[9], figures[10], figures[11], figures[12], figures[13], dbBytes,
          times[0], times[1], times[2], times[3], List.copyOf(unhonoured), Collections.unmodifiableMap(config),
          phases[0], phases[1], phases[2], phases[3], phases[4], List.copyOf(byLevel),
          new FollowUp(f[0], f[1], f[2], f[3], f[4], f[5], f[6], f[7], mixes), tail[0], tail[1], tail[2], tail[3], tail[4], tail[5]);
    }
  }

  private static void string(DataOutputStream out, String s) throws IOException {
    out.writeBoolean(s != null);
    if (s != null) {
      out.writeUTF(s);
    }
  }

  private static String string(DataInputStream in) throws IOException {
    return in.readBoolean() ? in.readUTF() : null;
  }

  private static void doubles(DataOutputStream out, double... values) throws IOException {
    for (double d : values) {
      out.writeDouble(d);
    }
  }

  private static double[] doubles(DataInputStream in, int count) throws IOException {
    double[] values = new double[count];
    for (int i = 0; i < count; i++) {
      values[i] = in.readDouble();
    }
    return values;
  }

  private static void tagged(DataOutputStream out, Object v) throws IOException {
    if (v == null) {
      out.writeByte('N');
    } else if (v instanceof String s) {
      out.writeByte('S');
      out.writeUTF(s);
    } else if (v instanceof Double || v instanceof Float) {
      out.writeByte('D');
      out.writeDouble(((Number) v).doubleValue());
    } else if (v instanceof Integer i) {
      out.writeByte('I');
      out.writeInt(i);
    } else if (v instanceof Long n) {
      out.writeByte('J');
      out.writeLong(n);
    } else if (v instanceof Boolean b) {
      out.writeByte('Z');
      out.writeBoolean(b);
    } else {
      throw new IllegalArgumentException("a run's config value must be a string, double, int, long or boolean, got "
          + v.getClass().getName() + " (" + v + ")");
    }
  }

  private static Object tagged(DataInputStream in, Path file) throws IOException {
    int tag = in.readByte();
    return switch (tag) {
      case 'N' -> null;
      case 'S' -> in.readUTF();
      case 'D' -> in.readDouble();
      case 'I' -> in.readInt();
      case 'J' -> in.readLong();
      case 'Z' -> in.readBoolean();
      default -> throw new IOException(file + ": unknown config value tag " + tag);
    };
  }
}
