/**
 * The compaction planners, each a pure function from the tree's shape to a plan: leveled, the
 * two-phase buffer of LSbM and dLSM, BlockDB's block compaction, DLC's delay of L0 work, and
 * the choices the engine adapts to what it measures.
 */
module dev.cairn.compaction {
  requires transitive dev.cairn.model;

  exports dev.cairn.compaction;
  exports dev.cairn.compaction.adapt;
  exports dev.cairn.compaction.block;
  exports dev.cairn.compaction.buffer;
  exports dev.cairn.compaction.dlc;
  exports dev.cairn.compaction.dlsm;
  exports dev.cairn.compaction.leveled;
}
