/**
 * The engine's I/O layer: the file system a database reads and writes through, the local
 * implementation, I/O accounting, and the names of a database's files.
 */
module dev.cairn.fs {
  // com.sun.nio.file.ExtendedOpenOption.DIRECT, for O_DIRECT reads.
  requires jdk.unsupported;

  exports dev.cairn.fs;
}
