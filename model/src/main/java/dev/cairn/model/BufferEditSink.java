package dev.cairn.model;


/**
 * Where a buffer draft writes its result: the entries to remove from and add to each level's
 * buffer runs (the engine's version edit, whose manifest records are {@code BUFFER_REMOVE} and
 * {@code BUFFER_ADD}). Per level, removals are written before additions.
 *
 * @param <F> the engine's table file
 */
public interface BufferEditSink<F extends TableFile> {
  void removeFromBuffer(int level, long runId, BufferEntry<F> entry);

  void addToBuffer(int level, long runId, BufferEntry<F> entry);
}
