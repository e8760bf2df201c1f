/**
 * The values the engine and its compaction planners share: file and buffer-run descriptors, key
 * ranges, the shape of the tree. Depends on nothing.
 */
module dev.cairn.model {
  exports dev.cairn.model;
}
