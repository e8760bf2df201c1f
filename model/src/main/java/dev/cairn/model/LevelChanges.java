package dev.cairn.model;

import java.util.List;
import java.util.Set;

/**
 * The level changes of the version edit a buffer draft joins: what a compaction (or a trim, which
 * changes none) does to the levels' files before the buffer's part is added.
 *
 * @param <F> the engine's table file
 */
public interface LevelChanges<F extends TableFile> {
  /** Levels where a file is deleted or added or its footer moves, in ascending order. */
  Set<Integer> changedLevels();

  /** The files the edit deletes from {@code level}, with their metadata before the edit. */
  List<F> deleted(int level);

  /** The files the edit adds to {@code level}. */
  List<F> added(int level);

  /**
   * The new metadata of files of {@code level} whose footer the edit moves (a block compaction's
   * append widens a live table in place); the old metadata is the level's file of that number.
   */
  List<F> footerUpdates(int level);

  /** No level changes (a trim pass). */
  static <F extends TableFile> LevelChanges<F> none() {
    return new LevelChanges<>() {
      @Override public Set<Integer> changedLevels() { return Set.of(); }
      @Override public List<F> deleted(int level) { return List.of(); }
      @Override public List<F> added(int level) { return List.of(); }
      @Override public List<F> footerUpdates(int level) { return List.of(); }
    };
  }
}
