package dev.cairn.hbase;

import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.hadoop.hbase.io.hfile.BlockCache;
import org.apache.hadoop.hbase.io.hfile.LruBlockCache;
import org.junit.jupiter.api.Test;

class ServerTickerTest {
  private static final ServerTicker.Registry<Failing> REGISTRY = new ServerTicker.Registry<>();

  /** A ticker whose first tick throws {@code first}; it counts its ticks. */
  private static final class Failing extends ServerTicker<String> {
    final AtomicInteger ticks = new AtomicInteger();
    private final Error first;

    Failing(BlockCache cache, Error first) {
      super(REGISTRY, cache, 5, "test-ticker");
      this.first = first;
    }

    @Override
    protected void tick() {
      if (ticks.incrementAndGet() == 1) {
        throw first;
      }
    }
  }

  @Test
  void anErrorOfThePluginsOwnKindIsLoggedAndTheTickerGoesOn() throws Exception {
    LruBlockCache cache = new LruBlockCache(1 << 20, 1 << 10);
    try {
      Failing ticker = ServerTicker.join(REGISTRY, cache, () -> new Failing(cache, new NoSuchMethodError("HBase changed")), "a");
      MiniCluster.waitFor("ticks after the failed one", Duration.ofSeconds(30), () -> ticker.ticks.get() >= 3);
      assertSame(ticker, ServerTicker.join(REGISTRY, cache, () -> new Failing(cache, null), "b"), "the same thread serves");
      ticker.leave("a");
      ticker.leave("b");
    } finally {
      cache.shutdown();
    }
  }

  @Test
  void anErrorOfTheJvmEndsTheThreadAndTheNextStoreGetsANewOne() throws Exception {
    LruBlockCache cache = new LruBlockCache(1 << 20, 1 << 10);
    try {
      Failing dying = ServerTicker.join(REGISTRY, cache, () -> new Failing(cache, new OutOfMemoryError("test")), "a");
      Failing[] next = new Failing[1];
      MiniCluster.waitFor("a new ticker once the first has died", Duration.ofSeconds(30), () -> {
        next[0] = ServerTicker.join(REGISTRY, cache, () -> new Failing(cache, new AssertionError("once")), "b");
        return next[0] != dying;
      });
      assertTrue(dying.ticks.get() == 1, "the dead ticker ticked once: " + dying.ticks.get());
      MiniCluster.waitFor("the new ticker ticking", Duration.ofSeconds(30), () -> next[0].ticks.get() >= 2);
      // The dead ticker's last store leaving takes the new ticker's place from nobody.
      dying.leave("a");
      dying.leave("b");
      assertSame(next[0], ServerTicker.join(REGISTRY, cache, () -> new Failing(cache, null), "c"));
      next[0].leave("b");
      next[0].leave("c");
    } finally {
      cache.shutdown();
    }
  }
}
