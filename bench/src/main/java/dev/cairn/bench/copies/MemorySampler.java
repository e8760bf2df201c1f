package dev.cairn.bench.copies;

import java.lang.management.BufferPoolMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.lang.management.ThreadMXBean;

/**
 * The process's heap in use, direct memory and live threads, sampled every {@value #PERIOD_MILLIS}
 * ms on a thread of its own from {@link #start()} to {@link #close()}, each one's peak kept. The
 * heap's peak includes garbage not yet collected (the puts' values), so it follows the collector
 * and {@code -Xmx} as much as the databases; what the databases keep is the heap after a
 * collection at the end ({@link #heapAfterCollection()}).
 */
final class MemorySampler implements AutoCloseable {
  static final long PERIOD_MILLIS = 100;

  /** The peaks over the sampled span. */
  record Peaks(long heapBytes, long directBytes, int threads) {}

  private final MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
  private final ThreadMXBean threads = ManagementFactory.getThreadMXBean();
  private final Thread sampler;
  private volatile boolean stopped;
  // Written by the sampling thread only; read after it has ended.
  private long heapPeak;
  private long directPeak;
  private int threadPeak;

  private MemorySampler() {
    threads.resetPeakThreadCount();
    sampler = new Thread(this::sampleUntilStopped, "copies-memory-sampler");
    sampler.setDaemon(true);
  }

  static MemorySampler start() {
    MemorySampler s = new MemorySampler();
    s.sample();
    s.sampler.start();
    return s;
  }

  private void sampleUntilStopped() {
    while (!stopped) {
      sample();
      try {
        Thread.sleep(PERIOD_MILLIS);
      } catch (InterruptedException e) {
        return;
      }
    }
  }

  private void sample() {
    heapPeak = Math.max(heapPeak, memory.getHeapMemoryUsage().getUsed());
    directPeak = Math.max(directPeak, directBytes());
    threadPeak = Math.max(threadPeak, threads.getThreadCount());
  }

  /**
   * Stops sampling and returns the peaks, one last sample included. The thread peak is also the
   * JVM's own since {@link #start()}, which sees threads that lived between two samples.
   */
  Peaks stop() throws InterruptedException {
    stopped = true;
    sampler.interrupt();
    sampler.join();
    sample();
    return new Peaks(heapPeak, directPeak, Math.max(threadPeak, threads.getPeakThreadCount()));
  }

  /** Heap in use after a full collection: what is reachable, memtables included. */
  long heapAfterCollection() {
    System.gc();
    return memory.getHeapMemoryUsage().getUsed();
  }

  /**
   * Direct memory in use: the JVM's direct buffers, plus netty's own count of what it allocates
   * without them (the block cache's pooled memory takes one way or the other, as the JVM allows):
   * the cache's blocks with its allocator's free space and thread caches.
   */
  static long directBytes() {
    long jvm = 0;
    for (BufferPoolMXBean pool : ManagementFactory.getPlatformMXBeans(BufferPoolMXBean.class)) {
      if (pool.getName().equals("direct")) {
        jvm += pool.getMemoryUsed();
      }
    }
    return jvm + Math.max(0, io.netty.util.internal.PlatformDependent.usedDirectMemory());
  }

  @Override
  public void close() throws InterruptedException {
    if (!stopped) {
      stop();
    }
  }
}
