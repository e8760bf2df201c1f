package dev.cairn;

import java.time.Instant;

/**
 * One backup in a backup directory ({@link Backups}).
 *
 * @param id the backup's number, increasing with each backup taken into the directory
 * @param created when the backup was taken
 * @param lastSequence the sequence of the newest write the backup may hold
 * @param files how many files restoring it writes
 * @param bytes how many bytes restoring it writes (tables shared with other backups counted in full)
 */
public record BackupInfo(long id, Instant created, long lastSequence, int files, long bytes) {}
