package dev.cairn.model;

import java.util.List;

/**
 * The levels a buffer decision reads: each level's files and its buffer runs. The engine's
 * version implements it; tests build one from text.
 *
 * @param <F> the engine's table file
 */
public interface BufferedLevels<F extends TableFile> {
  /** The level's files (L0 newest first, deeper levels in key order). */
  List<F> files(int level);

  /** The level's buffer runs, newest first; empty for a level without a buffer. */
  List<BufferRun<F>> bufferRuns(int level);
}
