package dev.cairn.key;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

class MergeOperandsTest {
  private static List<String> newestFirst(MergeOperands operands) {
    return operands.newestFirst().stream().map(String::new).toList();
  }

  @Test
  void operandsReadNewestFirstHoweverTheyWereRecorded() {
    MergeOperands forward = new MergeOperands();
    forward.add("c".getBytes());
    forward.add("b".getBytes());
    forward.add("a".getBytes());
    assertEquals(List.of("c", "b", "a"), newestFirst(forward));

    MergeOperands backward = new MergeOperands();
    for (String op : List.of("a", "b", "c")) {
      backward.addNewest(op.getBytes());
    }
    assertEquals(List.of("c", "b", "a"), newestFirst(backward));
    backward.addNewest("d".getBytes()); // after a read: recorded in the read's order
    backward.add("z".getBytes());
    assertEquals(List.of("d", "c", "b", "a", "z"), newestFirst(backward));
    backward.truncate(2);
    assertEquals(List.of("d", "c"), newestFirst(backward));
  }

  @Test
  void truncateKeepsTheNewestOfOperandsRecordedBackward() {
    MergeOperands backward = new MergeOperands();
    for (String op : List.of("a", "b", "c")) {
      backward.addNewest(op.getBytes());
    }
    backward.truncate(1);
    assertEquals(List.of("c"), newestFirst(backward));
  }
}
