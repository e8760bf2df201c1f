package dev.cairn.hbase;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.Test;

class RecentRowsTest {
  @Test
  void rowsComeOnceEachTheMostReadFirst() {
    RecentRows rows = new RecentRows();
    for (int i = 0; i < 40; i++) {
      rows.record(Bytes.toBytes("hot"));
    }
    for (int i = 0; i < 5; i++) {
      rows.record(Bytes.toBytes("warm")); // fresh arrays each time: rows are equal by content
    }
    List<byte[]> sampled = rows.byFrequency();
    assertArrayEquals(Bytes.toBytes("hot"), sampled.get(0));
    assertArrayEquals(Bytes.toBytes("warm"), sampled.get(1));
    assertEquals(2, sampled.size());
  }

  @Test
  void theSampleKeepsAtMostItsSlots() {
    RecentRows rows = new RecentRows();
    assertTrue(rows.byFrequency().isEmpty());
    for (int i = 0; i < 3 * RecentRows.SLOTS; i++) {
      rows.record(Bytes.toBytes(i));
    }
    int kept = rows.byFrequency().size();
    assertTrue(kept <= RecentRows.SLOTS && kept > RecentRows.SLOTS / 2, "rows kept: " + kept);
  }
}
