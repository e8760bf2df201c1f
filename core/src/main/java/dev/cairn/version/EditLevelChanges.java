package dev.cairn.version;

import dev.cairn.model.LevelChanges;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * The level changes of a {@link VersionEdit} about to be applied to a {@link Version}, taken once
 * when this is made: a buffer draft asks for them many times while it adds its own records to the
 * same edit, and those buffer records never change the levels' files.
 */
final class EditLevelChanges implements LevelChanges<FileMetaData> {
  private final Set<Integer> changedLevels = new TreeSet<>();
  private final Map<Integer, List<FileMetaData>> deleted = new HashMap<>();
  private final Map<Integer, List<FileMetaData>> added = new HashMap<>();
  private final Map<Integer, List<FileMetaData>> footerUpdates = new HashMap<>();

  EditLevelChanges(Version base, VersionEdit edit) {
    Map<Integer, Map<Long, FileMetaData>> baseFiles = new HashMap<>();
    for (VersionEdit.DeletedFile d : edit.deletedFiles()) {
      changedLevels.add(d.level());
      FileMetaData f = baseFiles.computeIfAbsent(d.level(), l -> byNumber(base.files(l))).get(d.number());
      if (f != null) {
        deleted.computeIfAbsent(d.level(), l -> new ArrayList<>()).add(f);
      }
    }
    for (VersionEdit.NewFile n : edit.newFiles()) {
      changedLevels.add(n.level());
      added.computeIfAbsent(n.level(), l -> new ArrayList<>()).add(n.file());
    }
    for (VersionEdit.FooterUpdate u : edit.footerUpdates()) {
      changedLevels.add(u.level());
      footerUpdates.computeIfAbsent(u.level(), l -> new ArrayList<>()).add(u.file());
    }
  }

  private static Map<Long, FileMetaData> byNumber(List<FileMetaData> files) {
    Map<Long, FileMetaData> out = new HashMap<>();
    files.forEach(f -> out.put(f.number(), f));
    return out;
  }

  @Override
  public Set<Integer> changedLevels() {
    return changedLevels;
  }

  /** The metadata, from the base, of the files the edit deletes from {@code level}. */
  @Override
  public List<FileMetaData> deleted(int level) {
    return deleted.getOrDefault(level, List.of());
  }

  @Override
  public List<FileMetaData> added(int level) {
    return added.getOrDefault(level, List.of());
  }

  @Override
  public List<FileMetaData> footerUpdates(int level) {
    return footerUpdates.getOrDefault(level, List.of());
  }
}
