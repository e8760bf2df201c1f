package dev.cairn.version;

import dev.cairn.compaction.buffer.LevelChanges;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/** The level changes of a {@link VersionEdit} about to be applied to a {@link Version}. */
final class EditLevelChanges implements LevelChanges<FileMetaData> {
  private final Version base;
  private final VersionEdit edit;

  EditLevelChanges(Version base, VersionEdit edit) {
    this.base = base;
    this.edit = edit;
  }

  @Override
  public Set<Integer> changedLevels() {
    Set<Integer> changed = new TreeSet<>();
    edit.deletedFiles().forEach(d -> changed.add(d.level()));
    edit.newFiles().forEach(n -> changed.add(n.level()));
    edit.footerUpdates().forEach(u -> changed.add(u.level()));
    return changed;
  }

  /** The metadata, from the base, of the files the edit deletes from {@code level}. */
  @Override
  public List<FileMetaData> deleted(int level) {
    Map<Long, FileMetaData> byNumber = new HashMap<>();
    for (FileMetaData f : base.files(level)) {
      byNumber.put(f.number(), f);
    }
    List<FileMetaData> out = new ArrayList<>();
    for (VersionEdit.DeletedFile d : edit.deletedFiles()) {
      FileMetaData f = d.level() == level ? byNumber.get(d.number()) : null;
      if (f != null) {
        out.add(f);
      }
    }
    return out;
  }

  @Override
  public List<FileMetaData> added(int level) {
    return edit.newFiles().stream().filter(n -> n.level() == level).map(VersionEdit.NewFile::file).toList();
  }

  @Override
  public List<FileMetaData> footerUpdates(int level) {
    return edit.footerUpdates().stream().filter(u -> u.level() == level).map(VersionEdit.FooterUpdate::file).toList();
  }
}
