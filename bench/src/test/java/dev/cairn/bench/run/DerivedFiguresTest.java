package dev.cairn.bench.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class DerivedFiguresTest {
  private static Sample second(double elapsed, long dbBytes, double bufferBytes) {
    return new Sample(elapsed, "e", "w", 0, 0, 0, Double.NaN, Double.NaN, Double.NaN, Double.NaN, 0, dbBytes, 0, -1,
        "", false, bufferBytes);
  }

  @Test
  void peakSpaceAmplificationIsTheLargestSecondOverTheLiveBytes() {
    List<Sample> samples = List.of(second(1, 300, Double.NaN), second(2, 900, Double.NaN), second(3, 450, Double.NaN));
    assertEquals(3.0, DerivedFigures.spaceAmplificationPeak(samples, 600, 300));
    assertEquals(4.0, DerivedFigures.spaceAmplificationPeak(samples, 1200, 300), "the phase's end counts too");
    assertEquals(2.0, DerivedFigures.spaceAmplificationPeak(List.of(), 600, 300), "a phase shorter than a second");
    assertTrue(Double.isNaN(DerivedFigures.spaceAmplificationPeak(samples, 600, 0)), "no live bytes: unknown");
    assertTrue(Double.isNaN(DerivedFigures.spaceAmplificationPeak(List.of(), 0, 300)), "nothing measured: unknown");
  }

  @Test
  void perLevelWriteAmplificationCountsLevelsReachedDuringThePhase() {
    long[] start = {100, 1000};
    long[] end = {300, 1400, 800, 0, 0};
    assertEquals(List.of(2.0, 4.0, 8.0), DerivedFigures.writeAmplificationByLevel(start, end, 100),
        "untouched deeper levels are left out");
    assertEquals(List.of(0.0, 4.0), DerivedFigures.writeAmplificationByLevel(start, new long[] {100, 1400, 0}, 100));
    assertEquals(List.of(), DerivedFigures.writeAmplificationByLevel(start, new long[0], 100), "unknown engine");
    assertEquals(List.of(), DerivedFigures.writeAmplificationByLevel(start, end, 0), "nothing written by users");
  }

  @Test
  void bufferFiguresIgnoreSecondsWithoutABuffer() {
    List<Sample> samples = List.of(second(1, 0, 10), second(2, 0, Double.NaN), second(3, 0, 30));
    assertEquals(20.0, DerivedFigures.bufferBytesMean(samples));
    assertEquals(30.0, DerivedFigures.bufferBytesMax(samples));
    List<Sample> none = List.of(second(1, 0, Double.NaN));
    assertTrue(Double.isNaN(DerivedFigures.bufferBytesMean(none)));
    assertTrue(Double.isNaN(DerivedFigures.bufferBytesMax(none)));
  }
}
