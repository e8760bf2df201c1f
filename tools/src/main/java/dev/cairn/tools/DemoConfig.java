package dev.cairn.tools;

import dev.cairn.Options;
import dev.cairn.config.CompactionSettings;
import java.nio.file.Path;
import java.util.Locale;

/**
 * Flags of {@code cairn demo}.
 *
 * @param dir the database directory, or null for a temporary one the demo removes
 */
record DemoConfig(Path dir, int records, int valueBytes, int backgroundThreads, CompactionSettings compaction) {
  static DemoConfig parse(String[] args) {
    Path dir = null;
    int records = 200_000;
    int valueBytes = 256;
    int backgroundThreads = Options.defaults().backgroundThreads();
    CompactionSettings compaction = Options.defaults().compaction();
    for (int i = 0; i < args.length; i++) {
      String flag = args[i];
      if (i + 1 >= args.length) {
        throw new CairnTool.UsageException("flag " + flag + " needs a value");
      }
      String value = args[++i];
      switch (flag) {
        case "--dir" -> dir = Path.of(value);
        case "--records" -> records = CairnTool.parseInt(value, "--records");
        case "--value-bytes" -> valueBytes = CairnTool.parseInt(value, "--value-bytes");
        case "--background-threads" -> backgroundThreads = CairnTool.parseInt(value, "--background-threads");
        case "--compaction-style" -> compaction = parseStyle(value);
        default -> throw new CairnTool.UsageException("unknown flag '" + flag
            + "' (valid: --dir, --records, --value-bytes, --background-threads, --compaction-style)");
      }
    }
    if (records <= 0 || valueBytes <= 0) {
      throw new CairnTool.UsageException("--records and --value-bytes must be positive");
    }
    return new DemoConfig(dir, records, valueBytes, backgroundThreads, compaction);
  }

  /** A leveled tree whose merges run as the named style, at its defaults. */
  private static CompactionSettings parseStyle(String value) {
    return switch (value.toUpperCase(Locale.ROOT)) {
      case "TABLE" -> CompactionSettings.leveled(CompactionSettings.Table.defaults());
      case "BLOCK" -> CompactionSettings.leveled(CompactionSettings.Block.defaults());
      case "BUFFER" -> CompactionSettings.leveled(CompactionSettings.Buffer.defaults());
      default -> throw new CairnTool.UsageException(
          "--compaction-style must be one of [TABLE, BLOCK, BUFFER], not '" + value + "'");
    };
  }
}
