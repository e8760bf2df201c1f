package dev.cairn.db;

import dev.cairn.BackupInfo;
import dev.cairn.Cairn;
import dev.cairn.CairnException;
import dev.cairn.CairnIOException;
import dev.cairn.CorruptionException;
import dev.cairn.fs.FileNames;
import dev.cairn.fs.FileSystem;
import dev.cairn.fs.IoTag;
import dev.cairn.fs.ReadableFile;
import dev.cairn.version.FileMetaData;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * An incremental backup directory (docs/operations.md, "Backups"):
 *
 * <pre>
 * BACKUPS/LOCK                          held while a process uses the directory
 * BACKUPS/meta/ID                       a finished backup: its files and checksums ({@link BackupRecord})
 * BACKUPS/meta/NEXT                     the next backup's id, taken before the backup starts
 * BACKUPS/shared/N_CRC_SIZE[_V].sst     tables, each copied once and shared by every backup holding it
 * BACKUPS/private/ID/MANIFEST-M, CURRENT   the backup's own manifest, naming its tables
 * </pre>
 *
 * A backup exists once its record is renamed into {@code meta/}; until then its files are
 * leftovers that the next backup or purge deletes. Nothing a backup writes touches a finished
 * backup's files, so a backup interrupted at any point (a crash, a kill, a full disk) leaves the
 * earlier ones whole. A table's shared name carries its number, CRC-32C and size; a later backup
 * shares a stored file of the table's number and size only when its bytes are the table's,
 * compared in full, else copies the table under its own name, or a variant of it ({@code _V})
 * when that name is taken.
 *
 * <p>Thread-safe: the operations of one instance run one at a time (a backup's garbage collection
 * must not see another's files before its record); the LOCK keeps other instances and processes out.
 */
public final class BackupEngine implements AutoCloseable {
  private static final String META = "meta";
  private static final String SHARED = "shared";
  private static final String PRIVATE = "private";
  private static final String PARTIAL = ".partial";
  /** The file under meta/ holding the next backup's id. */
  private static final String NEXT = "NEXT";
  /** What a restore writes in its building directory, besides the directory's LOCK. */
  private static final Set<FileNames.Kind> RESTORED_KINDS =
      EnumSet.of(FileNames.Kind.TABLE, FileNames.Kind.MANIFEST, FileNames.Kind.CURRENT);

  private final Path dir;
  private final FileSystem fs;
  private final AutoCloseable lock;

  private BackupEngine(Path dir, FileSystem fs, AutoCloseable lock) {
    this.dir = dir;
    this.fs = fs;
    this.lock = lock;
  }

  /** Opens (creating) the backup directory {@code dir} and takes its LOCK. */
  public static BackupEngine open(Path dir, FileSystem fs) {
    try {
      for (String sub : List.of(META, SHARED, PRIVATE)) {
        fs.createDirectories(dir.resolve(sub));
      }
      fs.syncDirectory(dir);
      try {
        return new BackupEngine(dir, fs, fs.lock(dir.resolve(FileNames.LOCK)));
      } catch (IOException | java.nio.channels.OverlappingFileLockException e) {
        throw new CairnException("backup directory " + dir + " is in use: cannot take its LOCK (" + e.getMessage() + ")", e);
      }
    } catch (IOException e) {
      throw new CairnIOException("opening backup directory " + dir, e);
    }
  }

  /**
   * Backs up {@code db}, open for writes: flushes it, then copies the tables no earlier backup
   * holds and writes the backup's manifest and record.
   */
  public synchronized BackupInfo create(Cairn db) {
    if (!(db instanceof DbImpl impl)) {
      throw new IllegalArgumentException("not a database Cairn.open returned: " + db);
    }
    try {
      List<BackupRecord> finished = records();
      collectGarbage(finished);
      long id = Math.max(finished.stream().mapToLong(BackupRecord::id).max().orElse(0) + 1, nextId());
      writeNextId(id + 1); // taken before anything is written: a failed backup leaves a gap, never a reuse
      SharedNames taken = sharedNamesTaken(finished);
      BackupRecord record = impl.withPinnedTables("backup", (tables, source) -> backUp(id, tables, source, taken));
      writeRecord(record); // the backup exists from here
      return record.info();
    } catch (IOException e) {
      throw new CairnIOException("backup of " + db + " into " + dir + " failed", e);
    }
  }

  /**
   * The names in {@code shared/} a new copy must not take: the files there, and those a finished
   * backup names (one missing from the disk stays its backup's, to be reported as missing).
   */
  private SharedNames sharedNamesTaken(List<BackupRecord> finished) throws IOException {
    SharedNames taken = new SharedNames();
    fs.list(dir.resolve(SHARED)).forEach(taken::add);
    for (BackupRecord r : finished) {
      for (BackupRecord.FileEntry f : r.files()) {
        if (f.path().startsWith(SHARED + "/")) {
          taken.add(f.path().substring(SHARED.length() + 1));
        }
      }
    }
    return taken;
  }

  private BackupRecord backUp(long id, PinnedTables tables, FileSystem source, SharedNames taken) throws IOException {
    Instant created = Instant.now(); // the point in time the backup holds: just after its flush
    List<BackupRecord.FileEntry> files = new ArrayList<>();
    for (FileMetaData t : tables.tables()) {
      Path table = tables.tablePath(t.number());
      Optional<BackupRecord.FileEntry> shared = storedCopy(t, table, source, taken);
      files.add(shared.isPresent() ? shared.get() : copyShared(t, table, source, taken));
    }
    fs.syncDirectory(dir.resolve(SHARED));
    String own = PRIVATE + "/" + id;
    Path ownDir = dir.resolve(own);
    fs.createDirectories(ownDir);
    tables.writeManifest(fs, ownDir);
    fs.syncDirectory(ownDir);
    fs.syncDirectory(dir.resolve(PRIVATE));
    for (String name : List.of(tables.manifestName(), FileNames.CURRENT)) {
      Path p = ownDir.resolve(name);
      files.add(entry(own + "/" + name, BackupChecksums.of(fs, p, fs.size(p))));
    }
    return new BackupRecord(id, created, tables.lastSequence(), files);
  }

  /**
   * A stored copy of the table to share: a file of the table's number and size whose bytes are
   * the table's, compared in full in the pass that takes the table's checksums (a number, a size
   * and a CRC-32C can agree for two different tables, another database's sharing this directory,
   * and a stored copy can rot). A matching first candidate, or none, reads the table once; each
   * differing candidate costs a read up to its first difference.
   */
  private Optional<BackupRecord.FileEntry> storedCopy(FileMetaData t, Path table, FileSystem source, SharedNames taken)
      throws IOException {
    long size = t.totalBytes();
    for (String name : taken.copiesOf(numberPart(t.number()), size)) {
      Path candidate = dir.resolve(SHARED).resolve(name);
      BackupChecksums.Builder sums = new BackupChecksums.Builder();
      if (fs.exists(candidate) && fs.size(candidate) == size
          && CopyFiles.sameBytes(source, table, fs, candidate, size, sums::add)) {
        return Optional.of(entry(SHARED + "/" + name, sums.build(size)));
      }
    }
    return Optional.empty();
  }

  /**
   * Copies the table into {@code shared/} (a partial file, checksummed as it is copied, renamed
   * at the end) under the name its checksum gives, or the first variant of it not {@code taken},
   * which then is.
   */
  private BackupRecord.FileEntry copyShared(FileMetaData t, Path table, FileSystem source, SharedNames taken)
      throws IOException {
    long size = t.totalBytes();
    Path partial = dir.resolve(SHARED).resolve(FileNames.table(t.number()) + PARTIAL);
    BackupChecksums sums = copy(source, table, size, partial);
    String base = sharedName(t.number(), sums.crc(), size);
    String name = base;
    for (int variant = 1; taken.isTaken(name); variant++) {
      name = variantName(base, variant);
    }
    fs.rename(partial, dir.resolve(SHARED).resolve(name));
    taken.add(name);
    return entry(SHARED + "/" + name, sums);
  }

  /** {@code 000017_3a2b1c0d_1048576.sst}, variant 2: {@code 000017_3a2b1c0d_1048576_2.sst}. */
  static String variantName(String sharedName, int variant) {
    return sharedName.substring(0, sharedName.length() - ".sst".length()) + "_" + variant + ".sst";
  }

  static String sharedName(long number, int crc, long size) {
    return numberPart(number) + "_" + BackupRecord.hex(crc) + "_" + size + ".sst";
  }

  /** A table number as its file name writes it, {@code 000017}. */
  private static String numberPart(long number) {
    return FileNames.table(number).replace(".sst", "");
  }

  private static BackupRecord.FileEntry entry(String path, BackupChecksums sums) {
    return new BackupRecord.FileEntry(path, sums.size(), sums.crc(), sums.chunkCrcs());
  }

  /**
   * The id the next backup takes at least, from {@code meta/NEXT}: kept so that ids are never
   * reused, even after every backup was purged (1 when there is no such file).
   */
  private long nextId() throws IOException {
    Path next = dir.resolve(META).resolve(NEXT);
    if (!fs.exists(next)) {
      return 1;
    }
    try (ReadableFile in = fs.openReadable(next)) {
      String text = new String(in.readFully(0, Math.toIntExact(in.size()), IoTag.OTHER), java.nio.charset.StandardCharsets.US_ASCII).trim();
      try {
        return Long.parseLong(text);
      } catch (NumberFormatException e) {
        throw new CorruptionException(next.toString(), 0, "not a backup id: '" + text + "'");
      }
    }
  }

  private void writeNextId(long id) throws IOException {
    CopyFiles.writeWhole(fs, dir.resolve(META).resolve(NEXT), (id + "\n").getBytes(java.nio.charset.StandardCharsets.US_ASCII));
  }

  private void writeRecord(BackupRecord record) throws IOException {
    CopyFiles.writeWhole(fs, dir.resolve(META).resolve(Long.toString(record.id())), record.render());
  }

  /** Every finished backup, oldest first. */
  public synchronized List<BackupInfo> list() {
    try {
      return records().stream().map(BackupRecord::info).toList();
    } catch (IOException e) {
      throw new CairnIOException("listing backups in " + dir, e);
    }
  }

  /**
   * Reads every file of backup {@code id} and checks its size and checksums; a difference is a
   * {@link CorruptionException} naming the file and the offset of its first damaged chunk.
   */
  public synchronized BackupInfo verify(long id) {
    try {
      BackupRecord record = record(id);
      for (BackupRecord.FileEntry f : record.files()) {
        Path p = dir.resolve(f.path());
        if (!fs.exists(p)) {
          throw new CorruptionException(p.toString(), 0, "missing from backup " + id);
        }
        long size = fs.size(p);
        if (size != f.size()) {
          throw new CorruptionException(p.toString(), Math.min(size, f.size()),
              size + " bytes where backup " + id + " recorded " + f.size());
        }
        check(f, p, BackupChecksums.of(fs, p, size));
      }
      return record.info();
    } catch (IOException e) {
      throw new CairnIOException("verifying backup " + id + " in " + dir, e);
    }
  }

  private static void check(BackupRecord.FileEntry f, Path p, BackupChecksums actual) {
    for (int i = 0; i < f.chunkCrcs().size(); i++) {
      if (i >= actual.chunkCrcs().size() || !f.chunkCrcs().get(i).equals(actual.chunkCrcs().get(i))) {
        throw new CorruptionException(p.toString(), (long) i * BackupRecord.CHUNK_BYTES,
            "the " + BackupRecord.CHUNK_BYTES + "-byte chunk here does not match the backup's checksum");
      }
    }
    if (actual.crc() != f.crc()) {
      throw new CorruptionException(p.toString(), 0, "CRC-32C " + BackupRecord.hex(actual.crc())
          + " where the backup recorded " + BackupRecord.hex(f.crc()));
    }
  }

  /**
   * Restores backup {@code id} into {@code target}, which must not exist: every file copied and
   * checked against the backup's checksums, into a directory beside the target renamed to it
   * at the end (it appears whole or not at all).
   */
  public synchronized BackupInfo restore(long id, Path target) {
    Path absolute = target.toAbsolutePath().normalize();
    if (fs.exists(absolute)) {
      throw new CairnException("restore target " + absolute + " already exists: a restore makes a new directory");
    }
    if (absolute.getParent() == null) {
      throw new IllegalArgumentException("restore target " + absolute + " has no parent directory");
    }
    Path building = absolute.resolveSibling(absolute.getFileName() + ".restore-building");
    // Refusals come before anything this call may remove: a directory it refuses is left as it is.
    BackupRecord record;
    try {
      record = record(id);
    } catch (IOException e) {
      throw new CairnIOException("restoring backup " + id + " from " + dir + " into " + absolute, e);
    }
    try (BuildingDirectory taken = BuildingDirectory.take(fs, building, RESTORED_KINDS, "restore", absolute)) {
      try {
        for (BackupRecord.FileEntry f : record.files()) {
          Path from = dir.resolve(f.path());
          Path to = building.resolve(restoredName(f.path()));
          check(f, from, copy(fs, from, f.size(), to));
        }
        fs.syncDirectory(building);
        taken.renameTo(absolute);
      } catch (IOException | RuntimeException e) {
        taken.removeAfter(e);
        if (e instanceof IOException io) {
          throw new CairnIOException("restoring backup " + id + " from " + dir + " into " + absolute, io);
        }
        throw (RuntimeException) e;
      }
    }
    try {
      fs.syncDirectory(absolute.getParent());
    } catch (IOException e) {
      throw new CairnIOException("backup " + id + " is restored whole into " + absolute + ", but its name may not"
          + " survive a power loss (syncing " + absolute.getParent() + " failed)", e);
    }
    return record.info();
  }

  /** {@code shared/000017_3a2b1c0d_1048576.sst} is restored as {@code 000017.sst}; a private file keeps its name. */
  static String restoredName(String path) {
    String name = path.substring(path.lastIndexOf('/') + 1);
    return path.startsWith(SHARED + "/") ? name.substring(0, name.indexOf('_')) + ".sst" : name;
  }

  /** Deletes all but the newest {@code keep} backups and the files only they held; returns those deleted. */
  public synchronized List<BackupInfo> purgeOldBackups(int keep) {
    if (keep < 0) {
      throw new IllegalArgumentException("backups to keep must not be negative: " + keep);
    }
    try {
      List<BackupRecord> all = records();
      List<BackupRecord> old = all.subList(0, Math.max(0, all.size() - keep));
      for (BackupRecord r : old) {
        fs.delete(dir.resolve(META).resolve(Long.toString(r.id())));
      }
      fs.syncDirectory(dir.resolve(META));
      collectGarbage(all.subList(old.size(), all.size()));
      return old.stream().map(BackupRecord::info).toList();
    } catch (IOException e) {
      throw new CairnIOException("purging backups in " + dir, e);
    }
  }

  /**
   * Deletes what no finished backup in {@code kept} names: an interrupted backup's partial files
   * and private directory, and the shared tables and private directories of purged backups.
   */
  private void collectGarbage(List<BackupRecord> kept) throws IOException {
    Set<String> named = new HashSet<>();
    Set<String> ids = new HashSet<>();
    for (BackupRecord r : kept) {
      r.files().forEach(f -> named.add(f.path()));
      ids.add(Long.toString(r.id()));
    }
    for (String name : fs.list(dir.resolve(META))) {
      if (name.endsWith(PARTIAL)) { // NEXT's too: NEXT itself stays
        fs.delete(dir.resolve(META).resolve(name));
      }
    }
    for (String name : fs.list(dir.resolve(SHARED))) {
      if (!named.contains(SHARED + "/" + name)) {
        fs.delete(dir.resolve(SHARED).resolve(name));
      }
    }
    for (String name : fs.list(dir.resolve(PRIVATE))) {
      if (!ids.contains(name)) {
        CopyFiles.removeDirectory(fs, dir.resolve(PRIVATE).resolve(name));
      }
    }
  }

  /** Backup {@code id}'s record, read on its own: another backup's damaged record does not stand in the way. */
  private BackupRecord record(long id) throws IOException {
    Path p = dir.resolve(META).resolve(Long.toString(id));
    if (id <= 0 || !fs.exists(p)) {
      throw new IllegalArgumentException("no backup " + id + " in " + dir);
    }
    return readRecord(p, Long.toString(id));
  }

  private BackupRecord readRecord(Path p, String name) throws IOException {
    byte[] content;
    try (ReadableFile in = fs.openReadable(p)) {
      content = in.readFully(0, Math.toIntExact(in.size()), IoTag.OTHER);
    }
    BackupRecord r = BackupRecord.parse(p.toString(), content);
    if (!Long.toString(r.id()).equals(name)) {
      throw new CorruptionException(p.toString(), 0, "holds backup " + r.id() + " under the name " + name);
    }
    return r;
  }

  /** The finished backups' records, oldest first; a damaged record is a {@link CorruptionException}. */
  private List<BackupRecord> records() throws IOException {
    List<BackupRecord> out = new ArrayList<>();
    Path metaDir = dir.resolve(META);
    for (String name : fs.list(metaDir)) {
      if (!name.chars().allMatch(Character::isDigit)) {
        continue; // NEXT, or a partial record: a backup that never finished
      }
      out.add(readRecord(metaDir.resolve(name), name));
    }
    out.sort(Comparator.comparingLong(BackupRecord::id));
    return out;
  }

  /** Copies the first {@code length} bytes of {@code from} (on {@code source}) into {@code to}; returns their checksums. */
  private BackupChecksums copy(FileSystem source, Path from, long length, Path to) throws IOException {
    BackupChecksums.Builder sums = new BackupChecksums.Builder();
    CopyFiles.copy(source, from, length, fs, to, sums::add);
    return sums.build(length);
  }

  @Override
  public void close() {
    try {
      lock.close();
    } catch (Exception e) {
      throw new CairnException("releasing the LOCK of backup directory " + dir + ": " + e.getMessage(), e);
    }
  }
}
