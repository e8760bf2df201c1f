package dev.cairn.bench.engine.node;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cairn.bench.engine.EngineMetrics;
import java.util.List;
import org.junit.jupiter.api.Test;

class ChildProcessIoTest {
  @Test
  void writesAreNetOfCancelledWrites() {
    ChildProcessIo io = ChildProcessIo.parse(List.of("rchar: 900", "wchar: 800", "read_bytes: 4096",
        "write_bytes: 12288", "cancelled_write_bytes: 4096"));
    assertEquals(4096, io.bytesRead());
    assertEquals(8192, io.bytesWritten());
  }

  @Test
  void aMissingFileOrFieldIsUnavailable() {
    assertEquals(EngineMetrics.UNAVAILABLE, ChildProcessIo.parse(List.of("rchar: 1")).bytesWritten());
    assertEquals(EngineMetrics.UNAVAILABLE, ChildProcessIo.of(Long.MAX_VALUE).bytesRead());
  }

  @Test
  void thisProcessCanReadItsOwn() {
    ChildProcessIo own = ChildProcessIo.of(ProcessHandle.current().pid());
    assertTrue(own.bytesWritten() >= 0 && own.bytesRead() >= 0, own.toString());
  }
}
