package dev.cairn.fs;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class FileNamesTest {
  @Test
  void numbersArePaddedToSixDigitsAsPrintfDoes() {
    long[] numbers = {0, 7, 42, 99_999, 100_000, 999_999, 1_000_000, 123_456_789_012L, Long.MAX_VALUE, -5};
    for (long n : numbers) {
      String printf = String.format("%06d", n);
      assertEquals(printf + ".sst", FileNames.table(n));
      assertEquals(printf + ".log", FileNames.log(n));
      assertEquals(printf + ".dbtmp", FileNames.temp(n));
      assertEquals("MANIFEST-" + printf, FileNames.manifest(n));
    }
  }

  @Test
  void namesParseBackToTheirKindAndNumber() {
    assertEquals(new FileNames.Parsed(FileNames.Kind.TABLE, 8), FileNames.parse(FileNames.table(8)));
    assertEquals(new FileNames.Parsed(FileNames.Kind.LOG, 1_234_567), FileNames.parse(FileNames.log(1_234_567)));
    assertEquals(new FileNames.Parsed(FileNames.Kind.MANIFEST, 5), FileNames.parse(FileNames.manifest(5)));
    assertEquals(new FileNames.Parsed(FileNames.Kind.TEMP, 9), FileNames.parse(FileNames.temp(9)));
    assertEquals(new FileNames.Parsed(FileNames.Kind.UNKNOWN, -1), FileNames.parse("00x008.sst"));
  }
}
