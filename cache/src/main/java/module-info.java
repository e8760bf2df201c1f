/**
 * The block cache: its eviction policies, off-heap block memory, and their statistics. Netty and
 * Caffeine stay inside: no exported signature names their types.
 */
module dev.cairn.cache {
  requires com.github.benmanes.caffeine;
  requires io.netty.buffer;

  exports dev.cairn.cache;
}
